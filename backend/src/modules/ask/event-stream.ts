import { PassThrough } from 'node:stream'

/** The headers of a server-sent event stream that proxies pass on as it comes (nginx reads X-Accel-Buffering). */
export const EVENT_STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
} as const

/** Headers of POST /ask_qa_stream's answer: the log the answer is written to, and its thread. */
export const ANSWER_LOG_HEADER = 'x-answer-log'
export const ANSWER_THREAD_HEADER = 'x-answer-thread'

/** A heartbeat at least this often keeps proxies and load balancers from closing a quiet stream. */
export const HEARTBEAT_MS = 10_000

/**
 * A text/event-stream body: `event: <name>` and one `data: <JSON>` line per event, and a comment line (": …") as a
 * heartbeat every `heartbeatMs` until it ends. Writing after the end (the reader left) does nothing.
 */
export class EventStream {
  readonly body = new PassThrough()
  private readonly timer: ReturnType<typeof setInterval>

  constructor(heartbeatMs = HEARTBEAT_MS) {
    // The first bytes go out at once, so a proxy sees the stream begin before the answer's first word.
    this.comment('stream open')
    this.timer = setInterval(() => this.comment('heartbeat'), heartbeatMs)
    this.timer.unref?.()
  }

  get isOpen(): boolean {
    return !this.body.writableEnded && !this.body.destroyed
  }

  send(event: string, data: unknown): void {
    // JSON.stringify escapes line breaks, so the data is one line.
    if (this.isOpen) this.body.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  }

  comment(text: string): void {
    if (this.isOpen) this.body.write(`: ${text}\n\n`)
  }

  end(): void {
    clearInterval(this.timer)
    if (this.isOpen) this.body.end()
  }
}
