import { style } from '@vanilla-extract/css'
import { layers, vars } from '../../styles/theme.css'

// A column, not a grid: react-aria's hidden <select> lives inside and must not take a row (and a gap) of its own.
export const root = style({ display: 'flex', flexDirection: 'column', gap: '0.35rem' })

// Outlined like the text inputs (SEED.md §2); the native select before hydration looks the same.
export const trigger = style({
  font: 'inherit',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: '0.5rem',
  width: '100%',
  padding: '0.6rem 0.75rem',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.control,
  background: vars.color.surface,
  color: vars.color.text,
  textAlign: 'left',
  cursor: 'pointer',
  selectors: { '[data-invalid] &, &[aria-invalid="true"]': { borderColor: vars.color.danger } },
})

export const chevron = style({ color: vars.color.muted })

export const popover = style({
  zIndex: Number(layers.menu),
  minWidth: 'var(--trigger-width)',
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.control,
  boxShadow: '0 6px 20px rgba(0,0,0,0.15)',
  overflow: 'auto',
})

export const listBox = style({ outline: 'none', padding: '0.25rem 0' })

export const option = style({
  padding: '0.45rem 0.75rem',
  cursor: 'pointer',
  outline: 'none',
  selectors: {
    '&[data-focused], &[data-hovered]': { background: vars.color.background },
    '&[data-focus-visible]': { outline: `3px solid ${vars.color.focus}`, outlineOffset: '-3px' },
    '&[data-selected]': { fontWeight: 600 },
  },
})
