import { describe, expect, it } from 'vitest'
import { createDateTimeTool } from './date-time-tool'

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
