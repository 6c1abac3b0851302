// Server-sent events of a streamed answer: reading the text/event-stream format, and what the events make of the
// answer shown so far. Pure and import-free (types only), so the Ask page's script stays small and the same code
// runs in the web server (reading the backend's stream) and in the browser (reading the web server's).
import type { AskAnswer, Source } from '../../../contracts/ask'
import type { MarkdownDocument } from '../markdown/markdown-document'

/** One event of the stream: its type (`message` when the event names none) and its data lines joined. */
export interface StreamEvent {
  event: string
  data: string
}

/**
 * Reads a text/event-stream as it arrives, in pieces cut anywhere (even inside a line or a CRLF): `push` each piece,
 * get the events it completed; `end` gives an event the stream left without its closing blank line. Comment lines
 * (heartbeats, ": …") and fields other than `event` and `data` are skipped, as the format says.
 */
export class EventStreamParser {
  private buffer = ''
  private event = ''
  private data: string[] = []
  private hasData = false

  push(chunk: string): StreamEvent[] {
    this.buffer += chunk
    const events: StreamEvent[] = []
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/)
      if (end < 0) break
      // A lone CR at the very end may be the first half of a CRLF: wait for the next piece.
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) break
      const line = this.buffer.slice(0, end)
      this.buffer = this.buffer.slice(end + (this.buffer.startsWith('\r\n', end) ? 2 : 1))
      const event = this.line(line)
      if (event) events.push(event)
    }
    return events
  }

  end(): StreamEvent[] {
    const rest = this.buffer
    this.buffer = ''
    const events: StreamEvent[] = []
    if (rest) {
      const event = this.line(rest.replace(/\r$/, ''))
      if (event) events.push(event)
    }
    const last = this.dispatch()
    if (last) events.push(last)
    return events
  }

  private line(line: string): StreamEvent | undefined {
    if (line === '') return this.dispatch()
    if (line.startsWith(':')) return undefined
    const colon = line.indexOf(':')
    const field = colon < 0 ? line : line.slice(0, colon)
    let value = colon < 0 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'event') this.event = value
    else if (field === 'data') {
      this.data.push(value)
      this.hasData = true
    }
    return undefined
  }

  private dispatch(): StreamEvent | undefined {
    const event = this.hasData ? { event: this.event || 'message', data: this.data.join('\n') } : undefined
    this.event = ''
    this.data = []
    this.hasData = false
    return event
  }
}

/** An event in the text/event-stream format (data is one line: JSON escapes line breaks). */
export function formatEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
}

/** The complete answer of a `done` event, with its text parsed as Markdown by the web server. */
export type StreamedAnswer = AskAnswer & { result_document: MarkdownDocument | null }

/** What the reader sees of a streamed answer. */
export interface AnswerStreamState {
  /** `writing` until `done` (complete) or `error` (failed). */
  phase: 'writing' | 'complete' | 'failed'
  /** The answer so far: the deltas since the start or the last reset. */
  text: string
  /** The sources cited so far. */
  sources: Source[]
  /** Why the text so far was dropped (a reset): shown while the quoted answer follows. */
  note: string | null
  /** The complete answer, once `done` came. */
  answer: StreamedAnswer | null
  /** Why the answer could not be produced (`error`, or a stream that ended before `done`). */
  error: string | null
}

export const INITIAL_STREAM_STATE: AnswerStreamState = { phase: 'writing', text: '', sources: [], note: null, answer: null, error: null }

export const STREAM_CUT_MESSAGE = 'The answer stopped before it was complete. Please ask again.'

function parseData(data: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(data)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/**
 * The state after one event: `delta` adds text, `sources` replaces the cited list, `reset` drops the text (keeping
 * its note), `done` completes the answer, `error` fails it. Events after the end, unknown events and data that is
 * not the expected shape change nothing.
 */
export function applyStreamEvent(state: AnswerStreamState, { event, data }: StreamEvent): AnswerStreamState {
  if (state.phase !== 'writing') return state
  const value = parseData(data)
  if (!value) return state
  switch (event) {
    case 'delta':
      return typeof value.text === 'string' ? { ...state, text: state.text + value.text } : state
    case 'sources':
      return Array.isArray(value.sources) ? { ...state, sources: value.sources as Source[] } : state
    case 'reset':
      return { ...state, text: '', sources: [], note: typeof value.note === 'string' ? value.note : state.note }
    case 'done': {
      if (typeof value.result !== 'string' && value.result !== null) return state
      const answer = value as unknown as StreamedAnswer
      return {
        ...state,
        phase: 'complete',
        text: answer.result ?? '',
        sources: Array.isArray(answer.source_list) ? answer.source_list : state.sources,
        answer: { ...answer, result_document: answer.result_document ?? null },
      }
    }
    case 'error':
      return { ...state, phase: 'failed', error: typeof value.message === 'string' ? value.message : STREAM_CUT_MESSAGE }
    default:
      return state
  }
}

/** The state once the stream has ended: an answer still being written was cut off. */
export function endStream(state: AnswerStreamState): AnswerStreamState {
  return state.phase === 'writing' ? { ...state, phase: 'failed', error: STREAM_CUT_MESSAGE } : state
}
