import { style } from '@vanilla-extract/css'
import { vars } from '../../styles/theme.css'

export const subnav = style({ display: 'flex', flexWrap: 'wrap', gap: '0.25rem', marginBottom: '1.25rem', borderBottom: `1px solid ${vars.color.border}` })

export const subnavLink = style({
  padding: '0.5rem 0.85rem',
  textDecoration: 'none',
  color: vars.color.muted,
  borderBottom: '3px solid transparent',
  selectors: { '&[aria-current="page"]': { color: vars.color.text, borderBottomColor: vars.color.brand, fontWeight: 600 } },
})

export const fieldset = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.card,
  padding: '1rem 1.25rem 0.25rem',
  margin: '0 0 1.25rem',
  minWidth: 0,
})

export const legend = style({ fontWeight: 700, padding: '0 0.35rem' })

export const grid = style({ display: 'grid', gap: '0 1.25rem', gridTemplateColumns: 'repeat(auto-fit, minmax(16rem, 1fr))', alignItems: 'start' })

/** One repeated row (a shortcut, a tool, a section): its fields side by side and its row buttons. */
export const row = style({
  display: 'grid',
  gap: '0 1rem',
  gridTemplateColumns: 'repeat(auto-fit, minmax(14rem, 1fr))',
  alignItems: 'start',
  padding: '0.75rem 0 0',
  borderTop: `1px dashed ${vars.color.border}`,
})

export const rowActions = style({ display: 'flex', flexWrap: 'wrap', gap: '0.5rem', alignItems: 'center', marginBottom: '1rem' })

/** A row's buttons beside its fields: level with the inputs, below the labels. */
export const rowButtons = style([rowActions, { '@media': { 'screen and (min-width: 48rem)': { paddingTop: '1.85rem' } } }])

/** A tool or section row: a short field, a long one and the row's buttons. */
export const wideRow = style([row, { '@media': { 'screen and (min-width: 48rem)': { gridTemplateColumns: 'minmax(10rem, 1fr) minmax(16rem, 2fr) auto' } } }])

export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: '0.75rem', alignItems: 'center', marginTop: '0.5rem' })

export const formError = style({
  color: vars.color.danger,
  border: `1px solid ${vars.color.danger}`,
  borderRadius: vars.radius.control,
  padding: '0.75rem 1rem',
  marginBottom: '1rem',
})

export const errorSummaryTitle = style({ margin: 0, fontWeight: 600 })

/** Long messages wrap at 390 px instead of widening the page. */
export const errorSummaryList = style({ margin: '0.5rem 0 0', paddingLeft: '1.25rem', overflowWrap: 'anywhere' })

export const confirm = style({
  border: `2px solid ${vars.color.danger}`,
  borderRadius: vars.radius.card,
  padding: '1rem 1.25rem',
  marginBottom: '1.25rem',
})
