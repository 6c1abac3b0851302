import { globalStyle, style } from '@vanilla-extract/css'
import { layers, vars } from './theme.css'

// Below this width the tabs fold into a menu (app/components/dashboard-nav.tsx) and the page keeps narrower margins.
const WIDE = 'screen and (min-width: 48rem)'
const NARROW = 'screen and (max-width: 47.99rem)'

export const header = style({
  display: 'flex',
  alignItems: 'center',
  gap: '1rem',
  padding: '0.75rem 1rem',
  background: vars.color.brand,
  color: vars.color.brandContrast,
  '@media': { [WIDE]: { padding: '0.75rem 1.5rem' } },
})

export const nav = style({
  position: 'relative',
  display: 'flex',
  alignItems: 'center',
  gap: '0.5rem 1rem',
  padding: '0.25rem 1rem',
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
  '@media': { [WIDE]: { padding: '0 1.5rem' } },
})

export const tabs = style({
  display: 'none',
  listStyle: 'none',
  margin: 0,
  padding: 0,
  '@media': { [WIDE]: { display: 'flex', flexWrap: 'wrap', flex: '1 1 auto', gap: '0.25rem' } },
})

export const tab = style({
  display: 'block',
  padding: '0.75rem 1rem',
  textDecoration: 'none',
  color: vars.color.muted,
  borderBottom: '3px solid transparent',
  selectors: { '&[aria-current="page"]': { color: vars.color.text, borderBottomColor: vars.color.brand, fontWeight: 600 } },
})

export const tabSeparator = style({ flex: 1 })

export const navMenu = style({ flex: '1 1 auto', '@media': { [WIDE]: { display: 'none' } } })

export const navMenuButton = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '0.5rem',
  padding: '0.5rem 0.75rem',
  margin: '0.25rem 0',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.control,
  cursor: 'pointer',
  fontWeight: 600,
  listStyle: 'none',
  selectors: { '&::-webkit-details-marker': { display: 'none' }, [`${'details[open]'} > &`]: { background: vars.color.background } },
})

export const navMenuIcon = style({ display: 'block', flex: 'none' })

// The open menu lies over the page under the bar, the full width of the screen.
export const navMenuList = style({
  position: 'absolute',
  insetInline: 0,
  top: '100%',
  zIndex: Number(layers.menu),
  listStyle: 'none',
  margin: 0,
  padding: '0.25rem 0',
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
  boxShadow: '0 8px 16px rgb(0 0 0 / 0.15)',
})

export const navMenuLink = style({
  display: 'block',
  padding: '0.75rem 1.25rem',
  textDecoration: 'none',
  color: vars.color.text,
  borderInlineStart: '4px solid transparent',
  selectors: { '&[aria-current="page"]': { fontWeight: 600, borderInlineStartColor: vars.color.brand, background: vars.color.background } },
})

export const signOut = style({ display: 'flex', flexWrap: 'wrap', gap: '0.5rem 0.75rem', alignItems: 'center', justifyContent: 'flex-end', minWidth: 0, marginInlineStart: 'auto' })

export const signedInAs = style({ overflowWrap: 'anywhere', minWidth: 0, '@media': { [NARROW]: { maxWidth: '9rem' } } })

// Sign out is a form's button (it posts), drawn as the bar's other items: the tabs' text, colour and padding, no box.
export const signOutButton = style({
  font: 'inherit',
  color: vars.color.muted,
  background: 'none',
  border: 0,
  borderRadius: vars.radius.control,
  padding: '0.5rem 0.25rem',
  margin: 0,
  cursor: 'pointer',
  whiteSpace: 'nowrap',
  selectors: { '&:hover': { color: vars.color.text, textDecoration: 'underline' } },
  // On a wide screen the tabs' transparent underline too, so its words sit on the tabs' line.
  '@media': { [WIDE]: { padding: '0.75rem 1rem', borderBottom: '3px solid transparent' } },
})

export const main = style({ maxWidth: '1100px', margin: '0 auto', padding: '1rem 0.75rem', '@media': { [WIDE]: { padding: '1.5rem' } } })

export const card = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.card,
  padding: '1rem',
  marginBottom: '1rem',
  // Nothing read inside a card may widen the page: a long address or word breaks where it must.
  overflowWrap: 'anywhere',
  minWidth: 0,
  '@media': { [WIDE]: { padding: '1.25rem', marginBottom: '1.25rem' } },
})

// The card's padding is its top margin: a heading opening the card adds none of its own.
globalStyle(`${card} > :first-child`, { marginTop: 0 })

export const toolbar = style({ display: 'flex', flexWrap: 'wrap', gap: '0.75rem', alignItems: 'center', marginBottom: '1rem' })

// A text field in a toolbar takes the room there is (the whole line on a phone) instead of its default width.
globalStyle(`${toolbar} > :has(> input:not([type="hidden"]), > textarea)`, { flex: '1 1 14rem', maxWidth: '32rem', minWidth: 0 })

// An inline notice in the page (a warning or a load error beside what it is about); toasts live in components/toast.
export const notice = style({
  padding: '0.75rem 1rem',
  marginBottom: '1rem',
  borderRadius: vars.radius.card,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderLeft: `4px solid ${vars.color.brand}`,
  selectors: {
    '&[data-severity="error"]': { borderLeftColor: vars.color.danger },
    '&[data-severity="warn"]': { borderLeftColor: vars.color.focus },
    '&[data-severity="success"]': { borderLeftColor: vars.color.success },
  },
})

export const muted = style({ color: vars.color.muted })

export const pager = style({ display: 'flex', gap: '1rem', alignItems: 'center', marginTop: '1rem' })

export const facts = style({
  display: 'grid',
  gridTemplateColumns: 'max-content 1fr',
  gap: '0.25rem 1rem',
  margin: 0,
})

export const answerActions = style({ display: 'grid', gap: '0.75rem', marginTop: '1rem', borderTop: `1px solid ${vars.color.border}`, paddingTop: '1rem' })
