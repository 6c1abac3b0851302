import { globalStyle, style } from '@vanilla-extract/css'
import { vars } from '../../styles/theme.css'

// The answer section: reached by #answer and by focus, it keeps a little room above its heading.
export const answer = style({ scrollMarginTop: '0.5rem' })

// The heading takes focus when the answer arrives (tabIndex -1); the focus ring shows where the page moved to.
export const answerHeading = style({ selectors: { '&:focus-visible': { outline: `2px solid ${vars.color.focus}`, outlineOffset: '2px' } } })

// The words of an answer being written: line breaks kept, long words wrapped.
export const streamingText = style({ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxWidth: '75ch', margin: '0 0 1rem' })

export const unsupported = style({ margin: '1rem 0', maxWidth: '75ch' })
globalStyle(`${unsupported} mark`, { background: 'transparent', textDecoration: `underline wavy ${vars.color.danger}`, textUnderlineOffset: '3px', color: 'inherit' })

// A native select, as wide as the question field allows (the Ask page ships no select library).
export const modelSelect = style({ maxWidth: '100%', font: 'inherit', padding: '0.4rem 0.5rem', borderRadius: vars.radius.control, border: `1px solid ${vars.color.border}`, background: vars.color.surface, color: 'inherit' })
