import { style } from '@vanilla-extract/css'

// The users' search takes a whole line of the filters form, above the column filters, as it did in its own toolbar.
export const searchRow = style({ gridColumn: '1 / -1', marginBottom: 0 })
