import { json, type ActionFunctionArgs } from '@remix-run/node'
import { ErrorBody } from '../../../contracts/common'
import { applyStreamEvent, EventStreamParser, formatEvent, INITIAL_STREAM_STATE, type StreamEvent } from '~/components/ask/event-stream'
import { forReading, parseAskForm } from '~/models/ask.server'
import { backendFetch } from '~/models/backend-fetch.server'
import { ANSWER_LOG_HEADER, ANSWER_THREAD_HEADER } from '~/components/ask/use-answer-stream'
import { requireApiSession } from '~/utils/auth.server'
import { clientAddressHeader } from '~/utils/client-address.server'
import { getEnv } from '~/utils/env.server'
import { readFormData } from '~/utils/form.server'

/** A comment line at least this often keeps proxies and load balancers from closing a quiet stream. */
export const HEARTBEAT_MS = 10_000

const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  // no-transform: neither the web server's compression nor a proxy holds the events back to compress them.
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
}

/** This address only streams answers to the Ask page's posts. */
export function loader() {
  return json({ message: 'This address streams answers to questions posted from the Ask page (POST a question).' }, { status: 405, headers: { Allow: 'POST' } })
}

/**
 * The Ask page's question (form fields question, timezone, model, and thread for a follow-up) answered as server-sent events: the backend's
 * POST /ask_qa_stream, called with the server-held API key and the user's session, passed on event by event. The
 * `done` event gains `result_document` (the answer parsed as Markdown here, as the page's loader does), so the
 * browser renders the complete answer like any other. The backend call ends when the browser goes away.
 * A refusal (a bad question, an unknown model) is JSON with the backend's reason and status, before any event.
 */
export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApiSession(request)
  const submission = parseAskForm(await readFormData(request))
  if (submission.status !== 'success') {
    const errors = Object.values(submission.error ?? {}).flat().filter(Boolean)
    return json({ message: errors[0] ?? 'Please enter a question', errors: submission.error }, { status: 400, statusText: 'Bad Request' })
  }
  const { question, timezone, model, thread } = submission.value
  const upstreamAbort = new AbortController()
  const onAbort = () => upstreamAbort.abort()
  request.signal.addEventListener('abort', onAbort, { once: true })

  const env = getEnv()
  // A reader who leaves mid-answer aborts this call (backendFetch: cleanly).
  const send = (token: string) =>
    backendFetch(new URL('/ask_qa_stream', env.API_BASE_URL), {
      method: 'POST',
      headers: { apikey: env.API_KEY, ...clientAddressHeader(), authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ command: question, timezone: timezone || undefined, model: model || undefined, thread_id: thread }),
      signal: AbortSignal.any([upstreamAbort.signal, AbortSignal.timeout(env.API_TIMEOUT_MS)]),
    })
  let upstream: Awaited<ReturnType<typeof send>>
  try {
    upstream = await send(api.token)
    if (upstream.status === 401 && api.renew) upstream = await send(await api.renew())
  } catch (error) {
    request.signal.removeEventListener('abort', onAbort)
    if (error instanceof Response) throw error
    return json({ message: 'The answer service could not be reached. Please try again.' }, { status: 503, statusText: 'Service Unavailable' })
  }
  const isStream = (upstream.headers.get('content-type') ?? '').startsWith('text/event-stream')
  if (!upstream.ok || !isStream || !upstream.body) {
    request.signal.removeEventListener('abort', onAbort)
    const parsed = ErrorBody.safeParse(await upstream.json().catch(() => null))
    const status = upstream.ok ? 502 : upstream.status >= 500 ? 502 : upstream.status
    const message = parsed.success ? parsed.data.message : `The answer service answered ${upstream.status}`
    return json({ message, details: parsed.success ? (parsed.data.details ?? []) : [] }, { status })
  }
  // The answer's address, known before its first word: the page keeps it, so a reload finds the answer (ADR 297).
  const address: Record<string, string> = {}
  for (const name of [ANSWER_LOG_HEADER, ANSWER_THREAD_HEADER]) {
    const value = upstream.headers.get(name)
    if (value && /^\d{1,10}$/.test(value)) address[name] = value
  }
  return new Response(relay(upstream.body as ReadableStream<Uint8Array>, request.signal, upstreamAbort), { status: 200, headers: { ...EVENT_STREAM_HEADERS, ...address } })
}

/** The backend's events, re-sent with this server's own heartbeats, `done` with its Markdown document. */
function relay(body: ReadableStream<Uint8Array>, browserGone: AbortSignal, upstream: AbortController): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let timer: ReturnType<typeof setInterval> | undefined
  let isClosed = false
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const write = (text: string) => {
        if (isClosed) return
        try {
          controller.enqueue(encoder.encode(text))
        } catch {
          isClosed = true
        }
      }
      const close = () => {
        clearInterval(timer)
        if (isClosed) return
        isClosed = true
        try {
          controller.close()
        } catch {
          // already closed by the reader leaving
        }
      }
      browserGone.addEventListener('abort', () => {
        upstream.abort()
        close()
      })
      // The first bytes go out at once, so a proxy sees the stream begin before the answer's first word.
      write(': stream open\n\n')
      timer = setInterval(() => write(': heartbeat\n\n'), HEARTBEAT_MS)
      const parser = new EventStreamParser()
      const decoder = new TextDecoder()
      let state = INITIAL_STREAM_STATE
      const pass = (events: StreamEvent[]) => {
        for (const event of events) {
          state = applyStreamEvent(state, event)
          write(event.event === 'done' ? doneWithDocument(event.data) : rawEvent(event))
        }
      }
      const reader = body.getReader()
      try {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          pass(parser.push(decoder.decode(value, { stream: true })))
        }
        pass(parser.push(decoder.decode()))
        pass(parser.end())
      } catch {
        // The backend went away mid-answer (or the browser did, and the call was aborted).
        if (!browserGone.aborted && state.phase === 'writing') write(formatEvent('error', { message: 'The answer could not be produced' }))
      } finally {
        close()
      }
    },
    cancel() {
      clearInterval(timer)
      isClosed = true
      upstream.abort()
    },
  })
}

function doneWithDocument(data: string): string {
  let answer: { result?: unknown; source_list?: { page_content: string }[] }
  try {
    answer = JSON.parse(data) as typeof answer
  } catch {
    return rawEvent({ event: 'done', data })
  }
  return formatEvent('done', forReading(answer))
}

/** An event as it came: each line of its data on a data line of its own. */
function rawEvent({ event, data }: StreamEvent): string {
  return `event: ${event}\n${data
    .split('\n')
    .map((line) => `data: ${line}`)
    .join('\n')}\n\n`
}
