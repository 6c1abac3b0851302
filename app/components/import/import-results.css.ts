import { style } from '@vanilla-extract/css'

/** The drafts and articles a file's documents matched, under its result: a short list, as narrow as its cell. */
export const matches = style({ margin: '0.25rem 0 0', padding: 0, listStyle: 'none', display: 'grid', gap: '0.25rem', overflowWrap: 'anywhere' })

/** A title in a link may be one long word: it breaks rather than widening its column. */
export const breaks = style({ overflowWrap: 'anywhere' })
