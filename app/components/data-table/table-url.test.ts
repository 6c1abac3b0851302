import { describe, expect, it } from 'vitest'
import { askedSortHref, displayFilterDate, lastPageFirst, parseFilterDate, pastTheEndHref, sortValueOf, toBackendFilters } from './table-url'

describe('date filters (SEED.md §2: mm/dd/yy, the four-digit year of the PrimeReact pattern)', () => {
  it('reads mm/dd/yyyy, mm/dd/yy and the ISO day of older links', () => {
    expect(parseFilterDate('03/01/2024')).toBe('2024-03-01')
    expect(parseFilterDate('3/1/24')).toBe('2024-03-01')
    expect(parseFilterDate(' 2024-02-29 ')).toBe('2024-02-29')
  })

  it('refuses days that do not exist and other formats', () => {
    for (const text of ['02/30/2024', '13/01/2024', '2023-02-29', '01.03.2024', '1/3', 'tomorrow', '']) expect(parseFilterDate(text), text).toBeNull()
  })

  it('shows a valid date as mm/dd/yyyy and anything else as typed', () => {
    expect(displayFilterDate('2024-03-01')).toBe('03/01/2024')
    expect(displayFilterDate('3/1/24')).toBe('03/01/2024')
    expect(displayFilterDate('02/30/2024')).toBe('02/30/2024')
  })
})

describe('toBackendFilters', () => {
  const columns = [
    { field: 'title', label: 'Title', kind: 'text' },
    { field: 'id', label: 'Id', kind: 'numeric' },
    { field: 'timestamp', label: 'Saved', kind: 'date' },
  ] as const
  it('sends numbers as integers and dates as ISO days, leaves empty values out and reports bad ones', () => {
    const { filters, errors } = toBackendFilters(
      { title: { matchMode: 'contains', value: 'Crème' }, id: { matchMode: 'gt', value: '7' }, timestamp: { matchMode: 'dateIs', value: '03/01/24' } },
      columns,
    )
    expect(filters).toEqual({ title: { matchMode: 'contains', value: 'Crème' }, id: { matchMode: 'gt', value: 7 }, timestamp: { matchMode: 'dateIs', value: '2024-03-01' } })
    expect(errors).toEqual({})
    const bad = toBackendFilters({ title: { matchMode: 'contains', value: '' }, id: { matchMode: 'gt', value: '1.5' }, timestamp: { matchMode: 'dateIs', value: '02/30/2024' } }, columns)
    expect(bad.filters).toEqual({})
    expect(bad.errors).toEqual({ id: 'Enter a whole number', timestamp: 'Enter a date as mm/dd/yyyy' })
  })
})

describe('a pressed sort header (sort=<field>:<order>, sent with the filter form)', () => {
  it('becomes sortField and sortOrder, keeps the filters sent with it and starts at the first row', () => {
    const url = new URL(`http://app.test/articles?sortField=id&sortOrder=1&rows=5&first=10&title=How+to&title_mode=startsWith&sort=${sortValueOf({ field: 'title', order: -1 })}`)
    expect(askedSortHref(url)).toBe('/articles?sortField=title&sortOrder=-1&rows=5&title=How+to&title_mode=startsWith')
  })

  it('is added where the form kept no sort, and a malformed one is only dropped', () => {
    expect(askedSortHref(new URL('http://app.test/logs?command=harbour&sort=id%3A1'))).toBe('/logs?command=harbour&sortField=id&sortOrder=1')
    expect(askedSortHref(new URL('http://app.test/users?sortField=email&sort=email%3A2'))).toBe('/users?sortField=email')
    expect(askedSortHref(new URL('http://app.test/users?sort=%3Cscript%3E'))).toBe('/users')
  })

  it('leaves an address without one alone', () => {
    expect(askedSortHref(new URL('http://app.test/articles?sortField=title&sortOrder=1'))).toBeNull()
  })
})

describe('an address past the last page (a bookmark, a page link kept while rows were deleted)', () => {
  const url = new URL('http://localhost/articles/drafts?title=pea&first=99999&rows=30')

  it('leads to the last page, keeping the filters and page size', () => {
    expect(pastTheEndHref(url, { first: 99999, rows: 30, total: 39 })).toBe('/articles/drafts?title=pea&first=30&rows=30')
    expect(pastTheEndHref(url, { first: 60, rows: 30, total: 60 })).toBe('/articles/drafts?title=pea&first=30&rows=30')
  })

  it('leads to the first page without `first` when the table has one page or none', () => {
    expect(pastTheEndHref(url, { first: 99999, rows: 30, total: 26 })).toBe('/articles/drafts?title=pea&rows=30')
    expect(pastTheEndHref(url, { first: 30, rows: 30, total: 0 })).toBe('/articles/drafts?title=pea&rows=30')
  })

  it('leaves a page that has rows alone', () => {
    expect(pastTheEndHref(url, { first: 30, rows: 30, total: 39 })).toBeNull()
    expect(pastTheEndHref(url, { first: 0, rows: 30, total: 0 })).toBeNull()
  })

  it('knows where the last page starts', () => {
    expect([lastPageFirst(0, 30), lastPageFirst(30, 30), lastPageFirst(31, 30), lastPageFirst(39, 5)]).toEqual([0, 0, 30, 35])
  })
})
