import { style } from '@vanilla-extract/css'
import { vars } from '../../styles/theme.css'

export const tableWrap = style({ overflowX: 'auto', selectors: { '&[aria-busy="true"]': { opacity: 0.6 } } })

export const sortLink = style({ color: 'inherit', fontWeight: 600, textDecoration: 'none', whiteSpace: 'nowrap' })

export const filters = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(14rem, 1fr))',
  gap: '0.75rem 1rem',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.card,
  padding: '0.75rem 1rem 1rem',
  margin: '0 0 1rem',
})

export const filterLegend = style({ fontWeight: 600, padding: '0 0.25rem' })

export const filterColumn = style({ display: 'grid', gap: '0.35rem', alignContent: 'start' })

export const filterLabel = style({ fontWeight: 600 })

export const filterActions = style({ display: 'flex', gap: '0.75rem', alignItems: 'center', gridColumn: '1 / -1' })

// Outlined controls, as the text fields (SEED.md §2).
export const control = style({
  font: 'inherit',
  padding: '0.45rem 0.6rem',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.control,
  background: vars.color.surface,
  color: vars.color.text,
  width: '100%',
})

export const pager = style({ display: 'flex', flexWrap: 'wrap', gap: '1rem', alignItems: 'center', marginTop: '1rem' })

export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: '0.75rem' })

export const numeric = style({ fontVariantNumeric: 'tabular-nums' })
