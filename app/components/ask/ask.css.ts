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

// A form the page comes back to after it was sent (#feedback, #save-query): a little room above it, and the toast
// (fixed at the top right) does not hide its first line on a phone.
export const returnedTo = style({ scrollMarginTop: '6rem' })

// Feedback: the question, the choice so far, the optional reason, then the two choices.
export const feedback = style({ display: 'grid', gap: '0.5rem', maxWidth: '40rem' })
export const feedbackQuestion = style({ margin: 0, fontWeight: 600 })

// The earlier turns of a thread, oldest first, each a question and its answer.
export const turns = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: '1rem' })
export const turn = style({ borderInlineStart: `3px solid ${vars.color.border}`, paddingInlineStart: '0.75rem', minWidth: 0, overflowWrap: 'anywhere' })
export const turnQuestion = style({ fontWeight: 600, margin: '0 0 0.5rem' })

// The heading and New thread (in a thread), side by side where there is room; the way to ask sits apart from the field below it.
export const askBar = style({ display: 'flex', flexWrap: 'wrap', gap: '0.5rem 1rem', alignItems: 'center', justifyContent: 'space-between', marginBottom: '0.75rem' })
export const modeSwitch = style({ display: 'flex', flexWrap: 'wrap', gap: '0.5rem', alignItems: 'center', margin: '0 0 1rem', padding: 0, border: 'none' })

export const recentList = style({ margin: 0, paddingInlineStart: '1.25rem', display: 'grid', gap: '0.35rem', overflowWrap: 'anywhere' })
// Newer and older pages of the longer list, side by side (wrapping on a phone), each a finger's width.
export const recentPages = style({ display: 'flex', flexWrap: 'wrap', gap: '0.5rem 1.5rem' })

// The articles that may help under a not-found answer: a plain list of links, each a comfortable tap target on a phone.
export const relatedArticles = style({ margin: '0 0 1rem', paddingLeft: '1.25rem', display: 'grid', gap: '0.5rem', overflowWrap: 'anywhere' })

// Source cards: one per article, its quoted passages below the title.
export const sourceCards = style({ listStyle: 'none', padding: 0, margin: '0 0 1rem', display: 'grid', gap: '0.75rem' })
export const sourceCard = style({
  padding: '0.6rem 0.8rem',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.card,
  background: vars.color.surface,
  overflowWrap: 'anywhere',
})
export const sourceHeading = style({ margin: 0, fontWeight: 600 })
export const sourcePassage = style({ margin: '0.4rem 0 0', paddingLeft: '0.75rem', borderLeft: `3px solid ${vars.color.border}`, color: vars.color.text, fontSize: '0.95rem' })
export const sourceNumber = style({ color: vars.color.muted, fontVariantNumeric: 'tabular-nums' })
