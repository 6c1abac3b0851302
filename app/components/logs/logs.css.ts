import { style } from '@vanilla-extract/css'
import { vars } from '../../styles/theme.css'

export const facts = style({ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '0.25rem 1rem', margin: '0 0 1rem' })

export const excerpt = style({ color: vars.color.muted, fontSize: '0.9rem', margin: '0.25rem 0 0' })

export const deleted = style({ color: vars.color.danger, fontWeight: 600 })

export const commentList = style({ listStyle: 'none', padding: 0, margin: '0 0 1rem', display: 'grid', gap: '1rem' })

export const commentItem = style({ borderLeft: `3px solid ${vars.color.border}`, paddingLeft: '1rem' })

export const inlineForms = style({ display: 'flex', flexWrap: 'wrap', gap: '0.75rem', alignItems: 'flex-end' })

export const growForm = style({ flex: '1 1 24rem' })

export const select = style({
  font: 'inherit',
  padding: '0.45rem 0.6rem',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.control,
  background: vars.color.surface,
  color: vars.color.text,
})
