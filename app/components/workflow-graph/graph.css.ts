import { style } from '@vanilla-extract/css'
import { vars } from '../../styles/theme.css'

export const frame = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.card,
  background: vars.color.background,
  overflowX: 'auto',
  marginBottom: '1rem',
})

export const svg = style({ display: 'block', maxWidth: 'none' })

export const interactive = style({ height: '32rem', width: '100%' })

export const node = style({ stroke: vars.color.border, strokeWidth: 1.5 })
export const step = style({ fill: vars.color.brand, stroke: vars.color.brand })
export const terminal = style({ fill: vars.color.success, stroke: vars.color.success })
export const agent = style({ fill: vars.color.surface, stroke: vars.color.brand, strokeWidth: 2 })
export const tool = style({ fill: vars.color.surface, stroke: vars.color.muted, strokeDasharray: '4 3' })

export const label = style({ fontFamily: vars.font.body, fontSize: '13px', fill: vars.color.text, pointerEvents: 'none' })
export const labelOnFill = style({ fill: vars.color.brandContrast, fontWeight: 600 })

export const edge = style({ fill: 'none', stroke: vars.color.muted, strokeWidth: 1.5 })
export const dashed = style({ strokeDasharray: '6 4' })
export const edgeLabel = style({ fontFamily: vars.font.body, fontSize: '11px', fill: vars.color.muted })
export const arrow = style({ fill: vars.color.muted })

export const legend = style({ display: 'flex', flexWrap: 'wrap', gap: '1rem', margin: '0 0 1rem', padding: 0, listStyle: 'none' })

// Probes: the canvas reads the theme's resolved colours from these.
export const swatchStep = style({ color: vars.color.brand })
export const swatchOnStep = style({ color: vars.color.brandContrast })
export const swatchTerminal = style({ color: vars.color.success })
export const swatchSurface = style({ color: vars.color.surface })
export const swatchMuted = style({ color: vars.color.muted })
