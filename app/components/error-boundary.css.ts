import { style } from '@vanilla-extract/css'
import { vars } from '../styles/theme.css'

export const panel = style({
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderLeft: `4px solid ${vars.color.danger}`,
  borderRadius: vars.radius.card,
  padding: '1.25rem',
  marginBottom: '1.25rem',
})

export const heading = style({ marginTop: 0 })

export const summary = style({ cursor: 'pointer', fontWeight: 600, width: 'fit-content' })

export const label = style({ fontWeight: 600, marginBottom: '0.25rem', marginTop: '1rem' })

export const code = style({
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  margin: 0,
  padding: '0.75rem',
  background: vars.color.background,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.control,
  fontSize: '0.875rem',
  maxHeight: '24rem',
  overflow: 'auto',
})
