import { style } from '@vanilla-extract/css'
import { layers, vars } from '../styles/theme.css'

// SEED.md §9: toasts stack above modals, overlays, menus and tooltips.
export const region = style({
  position: 'fixed',
  top: '1rem',
  right: '1rem',
  zIndex: Number(layers.toast),
  display: 'grid',
  gap: '0.5rem',
  maxWidth: 'min(28rem, calc(100vw - 2rem))',
  pointerEvents: 'none',
  '@media': {
    // Without scripts nothing can dismiss a toast: it sits in the page flow, above the header, instead of floating
    // over the navigation for as long as the page is open.
    '(scripting: none)': { position: 'static', maxWidth: 'none', padding: '0.5rem 1rem 0', pointerEvents: 'auto' },
  },
})

export const toast = style({
  pointerEvents: 'auto',
  display: 'grid',
  gridTemplateColumns: '1fr auto',
  alignItems: 'start',
  gap: '0.25rem 0.75rem',
  minWidth: '16rem',
  padding: '0.75rem 1rem',
  borderRadius: vars.radius.card,
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderLeft: `4px solid ${vars.color.brand}`,
  boxShadow: '0 4px 16px rgba(0, 0, 0, 0.16)',
  selectors: {
    '&[data-severity="error"]': { borderLeftColor: vars.color.danger },
    '&[data-severity="warn"]': { borderLeftColor: vars.color.focus },
    '&[data-severity="success"]': { borderLeftColor: vars.color.success },
  },
})

export const text = style({ display: 'grid', gap: '0.125rem', minWidth: 0 })

export const summary = style({ fontWeight: 700 })

export const message = style({ overflowWrap: 'anywhere' })

// No ripple: a flat text button.
export const dismiss = style({
  font: 'inherit',
  lineHeight: 1,
  fontSize: '1.25rem',
  padding: '0.125rem 0.375rem',
  border: '1px solid transparent',
  borderRadius: vars.radius.control,
  background: 'transparent',
  color: vars.color.muted,
  cursor: 'pointer',
  selectors: { '&:hover': { color: vars.color.text, borderColor: vars.color.border } },
})
