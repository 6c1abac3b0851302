import { style } from '@vanilla-extract/css'

/** The date, or the time: each stays whole on its line. */
export const part = style({ whiteSpace: 'nowrap' })
