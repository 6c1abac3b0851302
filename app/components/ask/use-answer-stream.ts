import { useCallback, useEffect, useRef, useState } from 'react'
import { applyStreamEvent, endStream, EventStreamParser, INITIAL_STREAM_STATE, type AnswerStreamState } from './event-stream'

export const ASK_STREAM_PATH = '/resources/ask-stream'

/** Headers of the stream's answer: the log the answer is written to, and its thread (the backend's, passed on). */
export const ANSWER_LOG_HEADER = 'x-answer-log'
export const ANSWER_THREAD_HEADER = 'x-answer-thread'

/** A question being answered as a stream, and what has arrived of its answer. */
export interface AnswerStream extends AnswerStreamState {
  /** Counts the questions streamed on this page: a new question is a new answer. */
  id: number
  question: string
  /** Where the answer will be found once written (its log, in its thread), when the server said so. */
  address: { log: number; thread: number | null } | null
}

interface StartResult {
  /** False when the web server did not stream (a refusal, a sign-in needed): send the form the plain way instead. */
  isStreaming: boolean
}

/**
 * Asks the web server's stream (POST /resources/ask-stream) and follows its events. `start` resolves once it is
 * known whether the answer streams; the state then follows each event. A new question or leaving the page stops
 * following the one before, which the backend still writes and logs (ADR 297). `onEnd` runs when a stream closes with its answer.
 */
export function useAnswerStream(onEnd: (stream: AnswerStream) => void) {
  const [stream, setStream] = useState<AnswerStream | null>(null)
  const controller = useRef<AbortController | null>(null)
  const counter = useRef(0)
  const endRef = useRef(onEnd)
  endRef.current = onEnd

  useEffect(() => () => controller.current?.abort(), [])

  const start = useCallback(async (form: FormData): Promise<StartResult> => {
    controller.current?.abort()
    const current = new AbortController()
    controller.current = current
    const body = new URLSearchParams()
    for (const [name, value] of form) if (typeof value === 'string') body.append(name, value)
    let response: Response
    try {
      // A redirect (to sign-in, the session having ended) is not followed here: the page it leads to would take the
      // message left for it out of sight. The question goes the plain way instead, and its page shows it.
      response = await fetch(ASK_STREAM_PATH, { method: 'POST', body, headers: { accept: 'text/event-stream' }, redirect: 'manual', signal: current.signal })
    } catch {
      return { isStreaming: current.signal.aborted }
    }
    const isStream = response.ok && (response.headers.get('content-type') ?? '').startsWith('text/event-stream') && response.body
    if (!isStream || !response.body) return { isStreaming: false }
    const id = ++counter.current
    const log = Number(response.headers.get(ANSWER_LOG_HEADER))
    const thread = Number(response.headers.get(ANSWER_THREAD_HEADER))
    const address = Number.isInteger(log) && log > 0 ? { log, thread: Number.isInteger(thread) && thread > 0 ? thread : null } : null
    let state: AnswerStream = { ...INITIAL_STREAM_STATE, id, question: String(form.get('question') ?? '').trim(), address }
    setStream(state)
    void (async () => {
      const reader = response.body!.getReader()
      const decoder = new TextDecoder()
      const parser = new EventStreamParser()
      const apply = (events: ReturnType<EventStreamParser['push']>) => {
        if (!events.length) return
        state = events.reduce((next, event) => ({ ...next, ...applyStreamEvent(next, event) }), state)
        if (!current.signal.aborted) setStream(state)
      }
      try {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          apply(parser.push(decoder.decode(value, { stream: true })))
        }
        apply(parser.end())
      } catch {
        // Cut off: the state says so below, unless this question was replaced.
      }
      if (current.signal.aborted) return
      state = { ...state, ...endStream(state) }
      setStream(state)
      endRef.current(state)
    })()
    return { isStreaming: true }
  }, [])

  return { stream, start }
}
