import { globalStyle, keyframes, style } from '@vanilla-extract/css'
import { layers, vars } from '../../styles/theme.css'

// Filters fold away and tables scroll in their own box below this width.
const WIDE = 'screen and (min-width: 48rem)'
const NARROW = 'screen and (max-width: 47.99rem)'

// A table wider than the screen scrolls inside this box, never the page. Shadows at the edges (painted by backgrounds
// that scroll with the content, so they only show where more is hidden) say that there is more to the side.
export const tableWrap = style({
  overflowX: 'auto',
  maxWidth: '100%',
  backgroundImage: [
    `linear-gradient(to right, ${vars.color.surface} 30%, transparent)`,
    `linear-gradient(to left, ${vars.color.surface} 30%, transparent)`,
    'linear-gradient(to right, rgb(0 0 0 / 0.18), transparent)',
    'linear-gradient(to left, rgb(0 0 0 / 0.18), transparent)',
  ].join(', '),
  backgroundPosition: 'left center, right center, left center, right center',
  backgroundRepeat: 'no-repeat',
  backgroundSize: '2.5rem 100%, 2.5rem 100%, 0.75rem 100%, 0.75rem 100%',
  backgroundAttachment: 'local, local, scroll, scroll',
  selectors: { '&[aria-busy="true"]': { opacity: 0.6 } },
})

// On a phone, a table of four columns or more keeps readable columns and the box scrolls, rather than every title
// wrapping word by word; a narrower table fits the screen as it is. Its borders are drawn cell by cell (separate, with
// no spacing: the same lines) so that they move with the cells that stay in view below.
const SCROLLING_TABLE = `${tableWrap} > table:has(> thead > tr > :nth-child(4))`
globalStyle(SCROLLING_TABLE, { borderCollapse: 'separate', borderSpacing: 0, '@media': { [NARROW]: { minWidth: '44rem' } } })

// A table with no rows, only its message ("No invitations yet.", "No user matches these filters."): on a phone the
// message is the whole table, in the window's width; the column titles of nothing are not shown, and there is
// nothing to scroll sideways to.
const EMPTY_TABLE = `${tableWrap} > table:has(> tbody > tr:only-child > td[colspan]:only-child)`
globalStyle(EMPTY_TABLE, { '@media': { [NARROW]: { minWidth: 0 } } })
globalStyle(`${EMPTY_TABLE} > thead`, { '@media': { [NARROW]: { display: 'none' } } })

// The row's actions (its last cell, when that holds a link, a button or a disclosure) and their header stay at the
// box's right edge, over the columns scrolling beneath: on a phone, and on a wider screen too where many columns or
// long values (e-mail addresses) still make the table wider than its box. A row is acted on without scrolling
// sideways, and the actions are seen without knowing that there is more to the side. The shadow says what passes
// under them. Where the browser can tie styles to scrolling, it shows only while columns are hidden beneath (the box
// can still scroll towards the end); elsewhere it always shows, and where nothing passes it reads as the column's edge.
const ACTIONS_CELL = 'td:last-child:not([colspan])'
const PINNED_SHADOW = '-0.6rem 0 0.6rem -0.6rem rgb(0 0 0 / 0.35)'
// Over the box's scroll range: shown until its very end, where the last column is beside the actions.
const shadowWhileScrollable = keyframes({ '0%, 99%': { boxShadow: PINNED_SHADOW }, '100%': { boxShadow: 'none' } })
const ACTION = ':is(a[href], button, summary)'
globalStyle(
  [
    `${SCROLLING_TABLE} > tbody > tr > ${ACTIONS_CELL}:has(${ACTION})`,
    `${SCROLLING_TABLE}:has(> tbody > tr > ${ACTIONS_CELL} ${ACTION}) > thead > tr > th:last-child`,
  ].join(', '),
  {
    position: 'sticky',
    insetInlineEnd: 0,
    // As narrow as what it holds: the room left is the scrolling columns'.
    width: '1%',
    zIndex: 1,
    background: vars.color.surface,
    boxShadow: PINNED_SHADOW,
    '@supports': {
      '(animation-timeline: scroll())': {
        // No scrolling box (the table fits): the timeline is inactive, and no shadow is drawn.
        boxShadow: 'none',
        animationName: shadowWhileScrollable,
        animationTimingFunction: 'linear',
        animationFillMode: 'both',
        animationTimeline: 'scroll(nearest inline)',
      },
    },
  },
)

// A disclosure in a row ("Revoke…", "Delete…") keeps its marker and words on one line in a narrow column.
globalStyle(`${tableWrap} td > details > summary`, { '@media': { [NARROW]: { whiteSpace: 'nowrap' } } })
// Closed, it takes no room: the browser still lays out a closed disclosure's content (only hidden), at the width of
// the summary's column, so a confirming button with a longer word ("Yes, revoke invitation") stuck out of the pinned
// column past the box's edge, where it would be cut off as the column does not widen until it is opened.
globalStyle(`${tableWrap} td > details:not([open]) > :not(summary)`, { display: 'none' })

/**
 * A cell of a long value without spaces (a source address, a file name): it breaks anywhere rather than widening its
 * column, which would squeeze the others or push them out of the box, under the row's pinned actions.
 */
export const longValue = style({ overflowWrap: 'anywhere', minWidth: '10rem', '@media': { [NARROW]: { minWidth: '5rem' } } })

/**
 * A table of short columns but one long value that wraps (the import's files: name, result, draft numbers, a link):
 * on a phone it fits the window as it is, so the result is seen beside the name instead of scrolled away under the
 * row's pinned link.
 */
export const fitsPhone = style({})
globalStyle(`${SCROLLING_TABLE}${fitsPhone}`, { '@media': { [NARROW]: { minWidth: 0 } } })
globalStyle(`${SCROLLING_TABLE}${fitsPhone} :is(th, td)`, { '@media': { [NARROW]: { paddingInline: '0.5rem' } } })

/**
 * A short list of records with many facts each and one action (the invitation codes): on a phone each row is a card,
 * its cells one under another, each after the name its `data-label` gives (its column's title), so that nothing is
 * behind a sideways scroll and no value is under the pinned actions. Wider, it is a table like the others. The
 * rules that pin the actions and keep four columns 44rem wide are undone here by the same selectors with this class.
 */
export const stacksOnPhone = style({})
const STACKED = `${tableWrap} > table${stacksOnPhone}`
const STACKED_SCROLLING = `${SCROLLING_TABLE}${stacksOnPhone}`
globalStyle(`${STACKED}, ${STACKED} > tbody`, { '@media': { [NARROW]: { display: 'block', minWidth: 0 } } })
globalStyle(STACKED_SCROLLING, { '@media': { [NARROW]: { minWidth: 0 } } })
// The column titles stay for screen readers; each card says them beside its values.
globalStyle(`${STACKED} > thead`, {
  '@media': { [NARROW]: { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } },
})
globalStyle(`${STACKED} > tbody > tr`, {
  '@media': {
    [NARROW]: {
      display: 'block',
      border: `1px solid ${vars.color.border}`,
      borderRadius: vars.radius.card,
      padding: '0.5rem 0.75rem',
      marginBlockEnd: '0.75rem',
    },
  },
})
globalStyle(`${STACKED} > tbody > tr > td`, {
  '@media': { [NARROW]: { display: 'block', border: 0, padding: '0.25rem 0', overflowWrap: 'anywhere', minWidth: 0 } },
})
// A labelled value: the column's title, then the value, on one line where they fit (a title may wrap in its room).
globalStyle(`${STACKED} > tbody > tr > td[data-label]`, {
  '@media': { [NARROW]: { display: 'grid', gridTemplateColumns: '7.5rem minmax(0, 1fr)', columnGap: '0.75rem' } },
})
// Shown, not read out a second time: the table stays a table to screen readers, which name each cell's column header.
globalStyle(`${STACKED} > tbody > tr > td[data-label]::before`, {
  '@media': { [NARROW]: { content: ['attr(data-label)', 'attr(data-label) / ""'], fontWeight: 600, overflowWrap: 'anywhere' } },
})
// The row's actions follow its facts in the card, as wide as the card: not pinned, no shadow.
globalStyle(
  [
    `${STACKED_SCROLLING} > tbody > tr > ${ACTIONS_CELL}:has(${ACTION})`,
    `${STACKED_SCROLLING}:has(> tbody > tr > ${ACTIONS_CELL} ${ACTION}) > thead > tr > th:last-child`,
  ].join(', '),
  {
    '@media': {
      [NARROW]: {
        position: 'static',
        width: 'auto',
        background: 'none',
        boxShadow: 'none',
        '@supports': { '(animation-timeline: scroll())': { animationName: 'none', boxShadow: 'none' } },
      },
    },
  },
)

/** A title cell: room for a few words on a line beside long values, and a word longer than that breaks. */
export const titleCell = style({
  overflowWrap: 'anywhere',
  minWidth: '12rem',
  // On a phone the title wraps in the room left of the row's pinned actions, so it is read whole without scrolling:
  // the columns after it (source, dates) take the table's extra width and scroll under the actions.
  '@media': { [NARROW]: { minWidth: '7rem', width: '7rem' } },
})

/** A long text in a table cell shows its first three lines; its own page has the rest. */
export const clamp = style({ display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' })

// A sort header is a button (of the filter form) that reads as the header's text.
export const sortButton = style({
  font: 'inherit',
  color: 'inherit',
  fontWeight: 600,
  whiteSpace: 'nowrap',
  textAlign: 'inherit',
  background: 'none',
  border: 0,
  padding: 0,
  margin: 0,
  cursor: 'pointer',
})

export const filters = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(14rem, 100%), 1fr))',
  gap: '0.75rem 1rem',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.card,
  padding: '0.75rem 1rem 1rem',
  margin: 0,
  minWidth: 0,
})

// Folded under a summary on a narrow screen. On a wide one the fields always show and the summary is not needed: where
// the browser can style a <details> element's content (::details-content) it is shown open; elsewhere the fold stays.

export const filtersFold = style({
  margin: '0 0 1rem',
  '@media': { [WIDE]: { selectors: { '&::details-content': { contentVisibility: 'visible', display: 'block' } } } },
})

export const filtersSummary = style({
  cursor: 'pointer',
  fontWeight: 600,
  width: 'fit-content',
  padding: '0.5rem 0',
  selectors: { [`${'details[open]'} > &`]: { marginBottom: '0.5rem' } },
})

globalStyle(`${filtersFold} > ${filtersSummary}`, {
  '@supports': { 'selector(::details-content)': { '@media': { [WIDE]: { display: 'none' } } } },
})

export const filterLegend = style({ fontWeight: 600, padding: '0 0.25rem' })

export const filterColumn = style({ display: 'grid', gap: '0.35rem', alignContent: 'start' })

export const filterLabel = style({ fontWeight: 600 })

export const filterActions = style({ display: 'flex', gap: '0.75rem', alignItems: 'center', gridColumn: '1 / -1' })

// Outlined controls, as the text fields (SEED.md §2).
export const control = style({
  font: 'inherit',
  padding: '0.45rem 0.6rem',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.control,
  background: vars.color.surface,
  color: vars.color.text,
  width: '100%',
})

export const pager = style({ display: 'flex', flexWrap: 'wrap', gap: '1rem', alignItems: 'center', marginTop: '1rem' })

// A row's actions side by side; on a phone one under another, so the column that stays in view is narrow.
export const actions = style({
  display: 'flex',
  gap: '0.75rem',
  whiteSpace: 'nowrap',
  '@media': { [NARROW]: { flexDirection: 'column', alignItems: 'flex-start', gap: '0.5rem' } },
})

export const numeric = style({ fontVariantNumeric: 'tabular-nums' })

// The date filter: a text field (mm/dd/yyyy) with, once scripts run, a calendar button at its end.
export const dateField = style({ display: 'flex', gap: '0.35rem', alignItems: 'stretch', minWidth: 0 })

export const calendarButton = style({
  font: 'inherit',
  flex: '0 0 auto',
  padding: '0 0.6rem',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.control,
  background: vars.color.surface,
  color: vars.color.text,
  cursor: 'pointer',
  selectors: { '&[data-focus-visible]': { outline: `2px solid ${vars.color.focus}`, outlineOffset: '2px' } },
})

export const calendarPopover = style({
  zIndex: Number(layers.overlay),
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.card,
  boxShadow: '0 6px 20px rgba(0,0,0,0.15)',
  padding: '0.75rem',
  maxWidth: 'calc(100vw - 1rem)',
})

export const calendarDialog = style({ outline: 'none' })

export const calendarHeader = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '0.5rem', marginBottom: '0.5rem' })

globalStyle(`${calendarHeader} button`, {
  font: 'inherit',
  fontSize: '1.25rem',
  lineHeight: 1,
  padding: '0.25rem 0.6rem',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.control,
  background: vars.color.surface,
  color: vars.color.text,
  cursor: 'pointer',
})

export const calendarHeading = style({ fontSize: '1rem', margin: 0 })

export const calendarGrid = style({ borderCollapse: 'collapse', width: '100%' })

globalStyle(`${calendarGrid} th`, { fontWeight: 600, fontSize: '0.85rem', padding: '0.25rem', color: vars.color.muted })

export const calendarCell = style({
  textAlign: 'center',
  padding: '0.4rem',
  minWidth: '2rem',
  borderRadius: vars.radius.control,
  cursor: 'pointer',
  outline: 'none',
  selectors: {
    '&[data-outside-month]': { display: 'none' },
    '&[data-hovered]': { background: vars.color.background },
    '&[data-selected]': { background: vars.color.brand, color: vars.color.brandContrast },
    '&[data-focus-visible]': { outline: `2px solid ${vars.color.focus}`, outlineOffset: '-2px' },
  },
})
