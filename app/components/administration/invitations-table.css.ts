import { style } from '@vanilla-extract/css'

// The note is how an administrator tells invitations apart: on a phone it keeps a readable width (the table scrolls in
// its box) instead of wrapping word by word.
export const note = style({ minWidth: '12rem' })
