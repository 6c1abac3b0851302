import { style } from '@vanilla-extract/css'
import { vars } from '../../styles/theme.css'

/** The passage a source stands for, under its title: one article's passages are told apart by what they say. */
export const sourceExcerpt = style({ color: vars.color.muted, fontSize: '0.9rem', margin: '0.15rem 0 0.45rem' })
