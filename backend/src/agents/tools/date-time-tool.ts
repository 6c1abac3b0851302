import type { AgentTool } from './agent-tool'

// Questions about the present moment: "what time is it", "today's date", or a template section titled "Date".
const ASKS_FOR_NOW = /\b(?:today|tonight|current (?:date|time|day|year|month)|what (?:time|day|date|year|month) is it|what is the (?:date|time|day)|(?:date|time) (?:now|today))\b|^\s*(?:date|time|date and time|today)\s*$/i

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
    inputFor: (question) => (ASKS_FOR_NOW.test(question) ? 'now' : undefined),
    async run(_input, context) {
      const statement = describeNow(context.now(), context.timezone)
      return { chunks: [], statement, summary: statement }
    },
  }
}
