import { style } from '@vanilla-extract/css'
import { vars } from '../../styles/theme.css'

export const field = style({ display: 'grid', gap: '0.35rem', marginBottom: '1rem' })
export const label = style({ fontWeight: 600 })

// Outlined inputs (SEED.md §2).
export const input = style({
  font: 'inherit',
  padding: '0.6rem 0.75rem',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.control,
  background: vars.color.surface,
  color: vars.color.text,
  width: '100%',
  selectors: { '&[aria-invalid="true"], &[data-invalid]': { borderColor: vars.color.danger } },
})

export const error = style({ color: vars.color.danger, fontSize: '0.9rem' })
export const description = style({ color: vars.color.muted, fontSize: '0.9rem' })

// No ripple: a plain, flat button.
export const button = style({
  font: 'inherit',
  fontWeight: 600,
  padding: '0.55rem 1rem',
  borderRadius: vars.radius.control,
  border: `1px solid ${vars.color.brand}`,
  background: vars.color.brand,
  color: vars.color.brandContrast,
  cursor: 'pointer',
  selectors: {
    '&[data-variant="secondary"]': { background: vars.color.surface, color: vars.color.brand },
    '&[data-variant="danger"]': { background: vars.color.danger, borderColor: vars.color.danger },
    '&[data-disabled], &:disabled': { opacity: 0.6, cursor: 'not-allowed' },
  },
})

// A label and, for a required field, its visible "Required" mark beside it (outside the label, so the field's name
// stays the label's words; assistive technology hears "required" from the control itself).
export const labelRow = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: '0.25rem 0.5rem' })
export const requiredMark = style({ color: vars.color.muted, fontSize: '0.85rem', fontWeight: 400 })
