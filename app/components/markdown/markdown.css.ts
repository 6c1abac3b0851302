import { globalStyle, style } from '@vanilla-extract/css'
import { vars } from '../../styles/theme.css'

// Read text: long words and addresses wrap instead of widening the page.
export const markdown = style({ overflowWrap: 'anywhere', maxWidth: '75ch' })

globalStyle(`${markdown} > :first-child`, { marginTop: 0 })
globalStyle(`${markdown} > :last-child`, { marginBottom: 0 })
globalStyle(`${markdown} :is(h1, h2, h3, h4, h5, h6)`, { fontFamily: vars.font.heading, lineHeight: 1.25, margin: '1.25em 0 0.5em' })
globalStyle(`${markdown} h2`, { fontSize: '1.35rem' })
globalStyle(`${markdown} h3`, { fontSize: '1.15rem' })
globalStyle(`${markdown} :is(h4, h5, h6)`, { fontSize: '1rem' })
globalStyle(`${markdown} p`, { margin: '0 0 0.85em' })
globalStyle(`${markdown} :is(ul, ol)`, { margin: '0 0 0.85em', paddingLeft: '1.5rem' })
globalStyle(`${markdown} li + li`, { marginTop: '0.25em' })
globalStyle(`${markdown} li > :is(ul, ol)`, { marginBottom: 0 })
globalStyle(`${markdown} blockquote`, { margin: '0 0 0.85em', padding: '0.25rem 0 0.25rem 1rem', borderLeft: `4px solid ${vars.color.border}`, color: vars.color.muted })
globalStyle(`${markdown} :not(pre) > code`, {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  fontSize: '0.9em',
  padding: '0.1em 0.3em',
  borderRadius: vars.radius.control,
  background: vars.color.background,
  border: `1px solid ${vars.color.border}`,
})
globalStyle(`${markdown} hr`, { border: 0, borderTop: `1px solid ${vars.color.border}`, margin: '1.25em 0' })

// Code wraps rather than scrolls: a phone reads it whole, and no box needs to take keyboard focus.
export const codeBlock = style({
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  fontSize: '0.875rem',
  padding: '0.75rem',
  margin: '0 0 0.85em',
  background: vars.color.background,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.control,
})

export const tableScroll = style({ overflowX: 'auto', margin: '0 0 0.85em', maxWidth: '100%' })
globalStyle(`${tableScroll} table`, { overflowWrap: 'normal' })

// The words of a block of HTML in the content (its tags left out): a paragraph that keeps its line breaks.
export const rawHtml = style({ whiteSpace: 'pre-line' })

export const citation = style({ fontSize: '0.85em', textDecoration: 'none', fontWeight: 600, whiteSpace: 'nowrap', selectors: { '&:hover': { textDecoration: 'underline' } } })
