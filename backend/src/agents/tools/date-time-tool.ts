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
const HOLIDAY = String.raw`(?:christmas|xmas|new\s+year|easter|halloween|thanksgiving|valentine'?s(?:\s+day)?|hanukkah|ramadan|diwali|midsummer)`
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

/** date_time: tells the current date and time in the asker's time zone. */
export function createDateTimeTool(): AgentTool {
  return {
    name: 'date_time',
    kind: 'fact',
    inputFor: (question) => (asksForNow(question) ? 'now' : undefined),
    async run(_input, context) {
      const statement = describeNow(context.now(), context.timezone)
      return { chunks: [], statement, summary: statement }
    },
  }
}
