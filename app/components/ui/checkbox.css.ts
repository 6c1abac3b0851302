import { style } from '@vanilla-extract/css'
import { vars } from '../../styles/theme.css'

export const field = style({ marginBottom: '1rem' })

// The visual state follows the native input with :has(), so it is right before (or without) hydration too.
export const root = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '0.6rem',
  cursor: 'pointer',
  fontWeight: 600,
})

export const track = style({
  position: 'relative',
  flex: 'none',
  width: '2.5rem',
  height: '1.4rem',
  borderRadius: '999px',
  // The muted border keeps an off switch visible against the page (non-text contrast).
  border: `1px solid ${vars.color.muted}`,
  background: vars.color.background,
  transition: 'background 120ms',
  selectors: {
    [`${root}:has(input:checked) &, ${root}[data-selected] &`]: { background: vars.color.brand, borderColor: vars.color.brand },
    [`${root}:has(input:focus-visible) &, ${root}[data-focus-visible] &`]: { outline: `3px solid ${vars.color.focus}`, outlineOffset: '2px' },
  },
})

export const thumb = style({
  position: 'absolute',
  top: '2px',
  left: '2px',
  width: 'calc(1.4rem - 6px)',
  height: 'calc(1.4rem - 6px)',
  borderRadius: '50%',
  background: vars.color.surface,
  border: `1px solid ${vars.color.muted}`,
  transition: 'transform 120ms',
  selectors: {
    [`${root}:has(input:checked) &, ${root}[data-selected] &`]: { transform: 'translateX(1.1rem)' },
  },
})

export const box = style({
  flex: 'none',
  width: '1.15rem',
  height: '1.15rem',
  display: 'grid',
  placeItems: 'center',
  borderRadius: '4px',
  border: `2px solid ${vars.color.muted}`,
  background: vars.color.surface,
  color: vars.color.brandContrast,
  fontSize: '0.8rem',
  lineHeight: 1,
  selectors: {
    [`${root}:has(input:checked) &, ${root}[data-selected] &`]: { background: vars.color.brand, borderColor: vars.color.brand },
    [`${root}:has(input:focus-visible) &, ${root}[data-focus-visible] &`]: { outline: `3px solid ${vars.color.focus}`, outlineOffset: '2px' },
  },
})

export const check = style({
  visibility: 'hidden',
  selectors: { [`${root}:has(input:checked) &, ${root}[data-selected] &`]: { visibility: 'visible' } },
})
