import { style } from '@vanilla-extract/css'

const NARROW = 'screen and (max-width: 47.99rem)'

// The note is how an administrator tells invitations apart: it keeps a readable width beside the other columns, and a
// note of one long word breaks rather than widening the table past its box. On a phone it heads the invitation's card.
export const note = style({ minWidth: '12rem', overflowWrap: 'anywhere', '@media': { [NARROW]: { fontWeight: 600 } } })

// An organisation's name or a username without spaces breaks rather than widening its column.
export const longValue = style({ overflowWrap: 'anywhere', minWidth: '8rem' })
