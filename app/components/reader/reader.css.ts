import { globalStyle, style } from '@vanilla-extract/css'
import { vars } from '../../styles/theme.css'

// The quoted passage: the system's highlight colours (readable on every sponsor theme), a block between the rest.
export const passage = style({
  display: 'block',
  maxWidth: '75ch',
  margin: '0 0 0.85em',
  padding: '0.5rem 0.75rem',
  background: 'Mark',
  color: 'MarkText',
  borderLeft: `4px solid ${vars.color.brand}`,
  borderRadius: vars.radius.control,
  // Scrolled to by #passage: a little room above it.
  scrollMarginTop: '1rem',
  overflowWrap: 'anywhere',
})
globalStyle(`${passage} a`, { color: 'inherit' })
globalStyle(`${passage} blockquote`, { color: 'inherit' })
// Code inside the passage takes the highlight's colours too, or a dark theme's code background would sit under MarkText.
globalStyle(`${passage}[class] :is(code, pre)`, { background: 'transparent', color: 'inherit', borderColor: 'currentColor' })

// The article's text continues across the three parts as one text: no extra gaps at the cuts.
export const part = style({ margin: '0 0 0.85em' })

export const sourceLine = style({ overflowWrap: 'anywhere' })
