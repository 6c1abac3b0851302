import type { AgentTool } from './agent-tool'

/*
 * Whether a question asks about the present moment, read from how it is put rather than from a list of phrasings: a
 * calendar or clock unit asked for as it is now ("What day is it today?", "Which year are we in?", "today's date"), a
 * span from now to a point of the calendar ("How many days until Christmas?", "How long until the weekend?"), or
 * whether now is such a point ("Is it Friday?"). A unit that only describes something else ("the date format", "the
 * time zone", "the time limit"), a unit of something past or of an event ("Which year was the product launched?",
 * "How many days until an invitation expires?") or a mention of today ("today's questions in the logs") asks nothing
 * about now: the knowledge base answers those.
 */

/** A calendar or clock unit, as what is asked for. */
const UNIT = String.raw`(?:date|day(?:\s+of\s+the\s+(?:week|month|year))?|weekday|time|hour|week|month|year)`
/** The same units counted ("how many days"). */
const UNITS = String.raw`(?:seconds|minutes|hours|days|nights|sleeps|weeks|weekends|months|years)`
/** What puts the unit in the present: "is it", "are we (in)", "is this", "is today", "will it be tomorrow". */
const PRESENT = String.raw`(?:is\s+it|it\s+is|are\s+we(?:\s+in)?|we\s+are(?:\s+in)?|is\s+this|it\s+is\s+now|is\s+(?:today|tomorrow|tonight)|was\s+yesterday|will\s+it\s+be|do\s+we\s+have)`
/** A word that places it now. */
const NOW = String.raw`(?:today|tonight|tomorrow|yesterday|now|right\s+now|currently|at\s+the\s+moment)`
/** The question ends here, or goes on with another one ("… and how do I …"). */
const END = String.raw`(?=\s*(?:[?.!,;:]|$|(?:and|or|but|please)\b))`

const WEEKDAY = String.raw`(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)`
// "May" alone is a verb as often as a month: it counts with a day ("May 1", "1st of May").
const MONTH = String.raw`(?:january|february|march|april|june|july|august|september|october|november|december|may\s+\d{1,2}\b|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?may)`
const HOLIDAY = String.raw`(?:christmas|xmas|new\s+year|easter|good\s+friday|ascension|pentecost|whitsun|whit\s+sunday|halloween|thanksgiving|valentine'?s(?:\s+day)?|(?:mother|father)'?s\s+day|hanukkah|ramadan|diwali|midsummer)`
/** A point of the calendar or the clock that a span from now can reach. */
const POINT = String.raw`(?:${WEEKDAY}|${MONTH}|${HOLIDAY}|midnight|noon|tomorrow|\d{4}\b|\d{1,2}[/.-]\d{1,2}\b|(?:the|this|next)\s+(?:weekend|holidays|week|month|year|quarter)|(?:the\s+)?(?:end|start|beginning)\s+of\s+(?:the\s+|this\s+|next\s+)?(?:day|week|month|year|quarter))`

const ASKS_FOR_NOW = [
  // "What day is it (today)?", "Which year are we in?", "What's today's date?", "what time it is", "What is the current year?"
  String.raw`\b(?:what|which)(?:'s|\s+is|\s+was|\s+will\s+be)?\s+(?:the\s+|today's\s+|(?:the\s+)?current\s+|this\s+)?${UNIT}(?:\s+${PRESENT}(?:\s+in\s+[\p{L}\s]+?)?)?(?:\s+${NOW})?${END}`,
  // "today's date", "the current time", "the date today", "time now"
  String.raw`\b(?:today's|current|present)\s+${UNIT}${END}`,
  String.raw`\b(?:date|time|day)\s+(?:${NOW})${END}`,
  // "How many days until Christmas?", "How long until the weekend?", "How many days are left in the year?"
  String.raw`\bhow\s+(?:many\s+(?:more\s+)?${UNITS}|much\s+(?:more\s+)?time|long)\b[^.?!]*?\b(?:until|till|til|before|since|ago|to\s+go|left|remain(?:s|ing)?)\b[^.?!]*?\b${POINT}`,
  // "Is it Friday?", "Is today a weekday?", "Is it the weekend yet?"
  String.raw`\bis\s+(?:it|today|tomorrow)\s+(?:a\s+|the\s+)?(?:${WEEKDAY}|${HOLIDAY}|weekend|weekday)\b`,
  // A template section titled "Date" or "Today".
  String.raw`^\s*(?:date|time|date\s+and\s+time|today|today's\s+date|current\s+date)\s*$`,
].map((source) => new RegExp(source, 'iu'))

/** Whether a question asks about the present moment: the date, the time, or how far a day of the calendar is. */
export function asksForNow(question: string): boolean {
  const text = question.replace(/[’‘`´]/g, "'").replace(/\s+/g, ' ')
  return ASKS_FOR_NOW.some((pattern) => pattern.test(text))
}

/** The date and time at `now` in a time zone, in words; throws for an unknown zone. */
export function describeNow(now: Date, timezone: string): string {
  let format: Intl.DateTimeFormat
  try {
    format = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: timezone })
  } catch {
    throw new Error(`Unknown time zone "${timezone}"`)
  }
  return `The current date and time in ${timezone}: ${format.format(now)}.`
}

/** A day as year, month (1–12) and day of the month. */
type CalendarDay = { year: number; month: number; day: number }

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']
/** Days of the calendar that fall on the same date every year, by how a question names them. */
const FIXED_DAYS: readonly [RegExp, number, number, string][] = [
  [/^(?:christmas|xmas)(?:\s+day)?$/, 12, 25, 'Christmas'],
  [/^christmas\s+eve$/, 12, 24, 'Christmas Eve'],
  [/^new\s+year'?s?\s+eve$/, 12, 31, "New Year's Eve"],
  [/^new\s+year'?s?(?:\s+day)?$/, 1, 1, "New Year's Day"],
  [/^halloween$/, 10, 31, 'Halloween'],
  [/^valentine'?s(?:\s+day)?$/, 2, 14, "Valentine's Day"],
  [/^(?:the\s+)?end\s+of\s+(?:the|this)\s+year$/, 12, 31, 'the end of the year'],
]
/** Easter Sunday of a year in the Gregorian calendar (the Western churches' date), by the anonymous Gregorian computus. */
export function easterSunday(year: number): CalendarDay {
  const golden = year % 19
  const century = Math.floor(year / 100)
  const ofCentury = year % 100
  const leapCorrection = Math.floor(century / 4)
  const moonCorrection = Math.floor((century + 8) / 25)
  const epact = (19 * golden + century - leapCorrection - Math.floor((century - moonCorrection + 1) / 3) + 15) % 30
  const weekdayShift = (32 + 2 * (century % 4) + 2 * Math.floor(ofCentury / 4) - epact - (ofCentury % 4)) % 7
  const lateCorrection = Math.floor((golden + 11 * epact + 22 * weekdayShift) / 451)
  const monthAndDay = epact + weekdayShift - 7 * lateCorrection + 114
  return { year, month: Math.floor(monthAndDay / 31), day: (monthAndDay % 31) + 1 }
}

/** The day `offset` days after `day`. */
function plusDays(day: CalendarDay, offset: number): CalendarDay {
  const date = new Date(Date.UTC(day.year, day.month - 1, day.day + offset))
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() }
}

/** Days whose date moves from year to year, by how a question names them: each gives its date in a year. */
const MOVING_DAYS: readonly [RegExp, (year: number) => CalendarDay, string][] = [
  [/^easter(?:\s+sunday|\s+day)?$/, easterSunday, 'Easter Sunday'],
  [/^good\s+friday$/, (year) => plusDays(easterSunday(year), -2), 'Good Friday'],
  [/^easter\s+monday$/, (year) => plusDays(easterSunday(year), 1), 'Easter Monday'],
  [/^ascension(?:\s+day)?$/, (year) => plusDays(easterSunday(year), 39), 'Ascension Day'],
  [/^(?:pentecost|whitsun|whit\s+sunday)$/, (year) => plusDays(easterSunday(year), 49), 'Pentecost'],
  [/^(?:us\s+|american\s+)?thanksgiving(?:\s+day)?$/, (year) => {
    // The fourth Thursday of November.
    const firstWeekday = new Date(Date.UTC(year, 10, 1)).getUTCDay()
    return { year, month: 11, day: 1 + ((4 - firstWeekday + 7) % 7) + 21 }
  }, 'Thanksgiving (United States)'],
]

/** "How many days until Christmas?": the count asked for and what it runs to. */
const DAYS_UNTIL = /\bhow\s+(?:many\s+(?:more\s+)?(days|weeks|sleeps|nights)|long)\b[^.?!]*?\b(?:until|till|til|to|before)\s+([^.?!,;]+)/i

const dayNumber = (day: CalendarDay) => Date.UTC(day.year, day.month - 1, day.day) / 86_400_000

/** Today in a time zone; throws for an unknown zone. */
function todayIn(now: Date, timezone: string): CalendarDay {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now)
  const part = (type: string) => Number(parts.find((piece) => piece.type === type)?.value)
  return { year: part('year'), month: part('month'), day: part('day') }
}

/** The next day on or after `today` that has this month and day of the month (this year's, else next year's). */
function nextDate(today: CalendarDay, month: number, day: number, year?: number): CalendarDay | undefined {
  const candidate = { year: year ?? today.year, month, day }
  const date = new Date(Date.UTC(candidate.year, month - 1, day))
  if (date.getUTCMonth() !== month - 1) return undefined
  if (year === undefined && dayNumber(candidate) < dayNumber(today)) return nextDate(today, month, day, today.year + 1)
  return dayNumber(candidate) < dayNumber(today) ? undefined : candidate
}

/**
 * What a "how many days until …" question counts to, when the calendar fixes it: a day with a fixed date (Christmas,
 * New Year's Day, the end of the year), a day that moves from year to year but follows a rule (Easter and the days
 * it sets, Thanksgiving in the United States), a date ("14 March", "March 14th, 2027") or a weekday (the next one:
 * "until Monday" asked on a Monday is a week away). Other spans are left to the date alone.
 */
export function daysUntil(question: string, now: Date, timezone: string): { days: number; unit: string; label: string; date: CalendarDay } | undefined {
  const match = DAYS_UNTIL.exec(question.replace(/[’‘`´]/g, "'").replace(/\s+/g, ' '))
  if (!match) return undefined
  const unit = (match[1] ?? 'days').toLowerCase()
  const target = (match[2] as string).trim().toLowerCase().replace(/^(?:the\s+)?(?:next\s+)?/, '').replace(/\s+(?:is|comes|arrives|starts)$/, '')
  const today = todayIn(now, timezone)
  let date: CalendarDay | undefined
  let label = ''
  const fixed = FIXED_DAYS.find(([pattern]) => pattern.test(target))
  const moving = MOVING_DAYS.find(([pattern]) => pattern.test(target))
  if (fixed) {
    date = nextDate(today, fixed[1], fixed[2])
    label = fixed[3]
  } else if (moving) {
    // This year's, unless it has passed: then next year's.
    const [, dateIn, name] = moving
    date = dayNumber(dateIn(today.year)) >= dayNumber(today) ? dateIn(today.year) : dateIn(today.year + 1)
    label = name
  } else if (WEEKDAYS.includes(target)) {
    const todayWeekday = new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay()
    // "Until Monday" asked on a Monday means the next one.
    const ahead = (WEEKDAYS.indexOf(target) - todayWeekday + 7) % 7 || 7
    const next = new Date(Date.UTC(today.year, today.month - 1, today.day + ahead))
    date = { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() }
  } else {
    const dayFirst = /^(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]+)(?:,?\s+(\d{4}))?$/.exec(target)
    const monthFirst = /^([a-z]+)\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?$/.exec(target)
    const [day, month, year] = dayFirst ? [dayFirst[1], dayFirst[2], dayFirst[3]] : monthFirst ? [monthFirst[2], monthFirst[1], monthFirst[3]] : []
    const monthNumber = MONTHS.indexOf(month ?? '') + 1
    if (monthNumber > 0) {
      date = nextDate(today, monthNumber, Number(day), year === undefined ? undefined : Number(year))
      label = ''
    }
  }
  if (!date) return undefined
  return { days: dayNumber(date) - dayNumber(today), unit, label, date }
}

/** The date and time now, and, for a question that counts the days to a fixed day, how many there are. */
export function describeNowFor(question: string, now: Date, timezone: string): string {
  const current = describeNow(now, timezone)
  const until = daysUntil(question, now, timezone)
  if (!until) return current
  const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(Date.UTC(until.date.year, until.date.month - 1, until.date.day)))
  const what = until.label ? `${until.label} (${when})` : when
  if (until.days === 0) return `${current} ${until.label ? `${until.label} is today.` : 'That is today.'}`
  const days = `${until.days} ${until.days === 1 ? 'day' : 'days'}`
  const weeks = Math.floor(until.days / 7)
  const inWeeks =
    until.unit === 'weeks' && weeks > 0 ? ` (${weeks} ${weeks === 1 ? 'week' : 'weeks'}${until.days % 7 ? ` and ${until.days % 7} ${until.days % 7 === 1 ? 'day' : 'days'}` : ''})` : ''
  return `${current} ${what.charAt(0).toUpperCase()}${what.slice(1)} is ${days}${inWeeks} away.`
}

/** date_time: tells the current date and time in the asker's time zone, and how many days to a day a question counts to. */
export function createDateTimeTool(): AgentTool {
  return {
    name: 'date_time',
    kind: 'fact',
    // The question itself when it counts the days to a day of the calendar, so the tool can count them too.
    inputFor: (question) => (asksForNow(question) ? (DAYS_UNTIL.test(question) ? question.trim() : 'now') : undefined),
    async run(input, context) {
      const statement = describeNowFor(input, context.now(), context.timezone)
      return { chunks: [], statement, summary: statement }
    },
  }
}
