import { style } from '@vanilla-extract/css'
import { vars } from '../styles/theme.css'

// Out of sight until it takes focus (the first Tab on a page), then at the top left, above everything.
export const skipLink = style({
  position: 'absolute',
  insetInlineStart: '0.5rem',
  top: '-10rem',
  zIndex: 1300,
  padding: '0.5rem 0.75rem',
  background: vars.color.surface,
  color: vars.color.text,
  border: `2px solid ${vars.color.focus}`,
  borderRadius: vars.radius.control,
  selectors: { '&:focus': { top: '0.5rem' } },
})
