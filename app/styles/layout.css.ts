import { style } from '@vanilla-extract/css'
import { vars } from './theme.css'

export const header = style({
  display: 'flex',
  alignItems: 'center',
  gap: '1rem',
  padding: '0.75rem 1.5rem',
  background: vars.color.brand,
  color: vars.color.brandContrast,
})

export const tabs = style({ display: 'flex', gap: '0.25rem', padding: '0 1.5rem', background: vars.color.surface, borderBottom: `1px solid ${vars.color.border}` })

export const tab = style({
  padding: '0.75rem 1rem',
  textDecoration: 'none',
  color: vars.color.muted,
  borderBottom: '3px solid transparent',
  selectors: { '&[aria-current="page"]': { color: vars.color.text, borderBottomColor: vars.color.brand, fontWeight: 600 } },
})

export const tabSeparator = style({ flex: 1 })

export const main = style({ maxWidth: '1100px', margin: '0 auto', padding: '1.5rem' })

export const card = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.card,
  padding: '1.25rem',
  marginBottom: '1.25rem',
})

export const toolbar = style({ display: 'flex', flexWrap: 'wrap', gap: '0.75rem', alignItems: 'center', marginBottom: '1rem' })

// An inline notice in the page (a warning or a load error beside what it is about); toasts live in components/toast.
export const notice = style({
  padding: '0.75rem 1rem',
  marginBottom: '1rem',
  borderRadius: vars.radius.card,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderLeft: `4px solid ${vars.color.brand}`,
  selectors: {
    '&[data-severity="error"]': { borderLeftColor: vars.color.danger },
    '&[data-severity="warn"]': { borderLeftColor: vars.color.focus },
    '&[data-severity="success"]': { borderLeftColor: vars.color.success },
  },
})

export const answer = style({ whiteSpace: 'pre-wrap' })

export const muted = style({ color: vars.color.muted })

export const pager = style({ display: 'flex', gap: '1rem', alignItems: 'center', marginTop: '1rem' })

export const content = style({ whiteSpace: 'pre-wrap', fontFamily: vars.font.body })

export const facts = style({
  display: 'grid',
  gridTemplateColumns: 'max-content 1fr',
  gap: '0.25rem 1rem',
  margin: 0,
})

export const answerActions = style({ display: 'grid', gap: '0.75rem', marginTop: '1rem', borderTop: `1px solid ${vars.color.border}`, paddingTop: '1rem' })
