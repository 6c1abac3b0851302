import { describe, expect, it } from 'vitest'
import { createDateTimeTool, easterSunday } from './date-time-tool'

const tool = createDateTimeTool()
const offersDate = (question: string) => tool.inputFor(question) !== undefined

describe('the date tool', () => {
  // Questions about the present moment, most of them sharing no word with "date and time" or "today".
  const aboutNow = [
    'What day is it today?',
    "What's today's date?",
    'What’s the date?',
    'What is the date today?',
    'Which year are we in?',
    'What year is it?',
    'What month is it now?',
    'What day of the week is it?',
    'Which day is it tomorrow?',
    'Can you tell me what time it is, please?',
    'What time is it in Tokyo?',
    'What is the current year?',
    'Tell me the current time',
    'How many days until Christmas?',
    'How many weeks are left until the end of the year?',
    'How long until the weekend?',
    'How many days are left in this month?',
    'How many days until 14 March?',
    'Is it Friday?',
    'Is today a weekday?',
    'What is 15% of 80 and what time is it?',
  ]
  // Other questions, some with a date or time word that is not about now: the knowledge base answers them.
  const aboutOtherThings = [
    'How do I publish drafts?',
    'What is the date format in the articles table?',
    'How do I filter the query logs by date?',
    'What time zone does the agent use?',
    'What is the time limit for an answer?',
    'Which year was the product launched?',
    'How many days does an invitation code stay valid?',
    'How long until a published article is found by search?',
    'How many days until a reset link expires?',
    'How do I see today’s questions in the query logs?',
    'What day are drafts published?',
    'Which date column can I sort by?',
    'How long before I may publish a draft?',
    'What is the current search type?',
    'Summarise what the knowledge base says about dates',
  ]

  it.each(aboutNow)('is offered for “%s”', (question) => {
    expect(offersDate(question)).toBe(true)
  })

  it.each(aboutOtherThings)('is not offered for “%s”', (question) => {
    expect(offersDate(question)).toBe(false)
  })

  it('is offered for a template section titled Date', () => {
    expect(offersDate('Date')).toBe(true)
    expect(offersDate('Date and time\n')).toBe(true)
  })
})

describe('counting the days to a day of the calendar', () => {
  // Monday 30 November 2026, 20:00 in Paris (19:00 UTC).
  const context = { signal: new AbortController().signal, timezone: 'Europe/Paris', limit: 4, scoreThreshold: 0, now: () => new Date('2026-11-30T19:00:00Z') }
  const answer = async (question: string) => (await tool.run(tool.inputFor(question) as string, context)).statement

  it('says how many days away a fixed day, a date or a weekday is, besides the date today', async () => {
    expect(await answer('How many days until Christmas?')).toBe(
      'The current date and time in Europe/Paris: Monday, 30 November 2026 at 20:00. Christmas (Friday, 25 December 2026) is 25 days away.',
    )
    expect(await answer('How long until New Year?')).toContain("New Year's Day (Friday, 1 January 2027) is 32 days away.")
    expect(await answer('How many weeks are left until the end of the year?')).toContain('The end of the year (Thursday, 31 December 2026) is 31 days (4 weeks and 3 days) away.')
    // A date already past this year is next year's.
    expect(await answer('How many days until 14 March?')).toContain('Sunday, 14 March 2027 is 104 days away.')
    expect(await answer('How many days until March 14th, 2027?')).toContain('Sunday, 14 March 2027 is 104 days away.')
    expect(await answer('How many days till Friday?')).toContain('Friday, 4 December 2026 is 4 days away.')
    // "Until Monday" on a Monday: the next one.
    expect(await answer('How many days until Monday?')).toContain('Monday, 7 December 2026 is 7 days away.')
    expect(await answer('How many days until 30 November?')).toContain('That is today.')
  })

  it('counts to the days that move from year to year by a rule: Easter and the days it sets, Thanksgiving', async () => {
    expect(await answer('How many days until Easter?')).toContain('Easter Sunday (Sunday, 28 March 2027) is 118 days away.')
    expect(await answer('How many days until Good Friday?')).toContain('Good Friday (Friday, 26 March 2027) is 116 days away.')
    expect(await answer('How long until Pentecost?')).toContain('Pentecost (Sunday, 16 May 2027)')
    // This year's was last Thursday: next year's.
    expect(await answer('How many days until Thanksgiving?')).toContain('Thanksgiving (United States) (Thursday, 25 November 2027) is 360 days away.')
  })

  it('finds Easter Sunday in any year of the Gregorian calendar', () => {
    const known: [number, string][] = [
      [1961, '1961-04-02'], [2000, '2000-04-23'], [2008, '2008-03-23'], [2011, '2011-04-24'], [2019, '2019-04-21'], [2024, '2024-03-31'],
      [2025, '2025-04-20'], [2026, '2026-04-05'], [2038, '2038-04-25'], [2285, '2285-03-22'],
    ]
    for (const [year, date] of known) {
      const easter = easterSunday(year)
      expect(`${easter.year}-${String(easter.month).padStart(2, '0')}-${String(easter.day).padStart(2, '0')}`, String(year)).toBe(date)
    }
  })

  it('tells only the date where the calendar does not fix the day', async () => {
    const dateOnly = 'The current date and time in Europe/Paris: Monday, 30 November 2026 at 20:00.'
    expect(await answer("How many days until Mother's Day?")).toBe(dateOnly)
    expect(await answer('How many days until 31 February?')).toBe(dateOnly)
    expect(await answer('What day is it today?')).toBe(dateOnly)
  })
})
