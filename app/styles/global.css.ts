import { globalStyle } from '@vanilla-extract/css'
import { vars } from './theme.css'

globalStyle('*, *::before, *::after', { boxSizing: 'border-box' })
globalStyle('html, body', { margin: 0, padding: 0 })
globalStyle('html', { colorScheme: vars.colorScheme })
globalStyle('body', {
  fontFamily: vars.font.body,
  color: vars.color.text,
  background: vars.color.background,
  lineHeight: 1.5,
  // A word or address longer than the line breaks instead of widening the page (tables keep their own scroll box).
  overflowWrap: 'break-word',
})
globalStyle('h1, h2, h3', { fontFamily: vars.font.heading, lineHeight: 1.25 })
globalStyle('a', { color: vars.color.brand })
globalStyle(':focus-visible', { outline: `3px solid ${vars.color.focus}`, outlineOffset: '2px' })
globalStyle('table', { borderCollapse: 'collapse', width: '100%', overflowWrap: 'normal' })
globalStyle('th, td', { textAlign: 'left', padding: '0.5rem 0.75rem', borderBottom: `1px solid ${vars.color.border}`, verticalAlign: 'top' })
globalStyle('.visually-hidden', {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
})
