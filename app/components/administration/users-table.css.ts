import { style } from '@vanilla-extract/css'

// The users' search takes a whole line of the filters form, above the column filters, as it did in its own toolbar.
export const searchRow = style({ gridColumn: '1 / -1', marginBottom: 0 })

// A username or an e-mail address wraps (after its dots and @, else anywhere) rather than widening its column: the
// nine columns then fit a laptop's screen, none of them passing under the row's pinned actions.
export const address = style({ overflowWrap: 'anywhere', minWidth: '6rem' })
