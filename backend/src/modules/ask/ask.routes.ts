import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { AskAnswer, AskAnswerBody, AskBody, AskModels, AskThread, AskThreadQuery, AskThreads, AskThreadsQuery } from '../../../../contracts/ask'
import { LogIdQuery } from '../../../../contracts/query-logs'
import { currentUser } from '../../plugins/access'
import { perAccountAskLimit } from './ask-limit'
import type { AskService } from './ask.service'
import { ANSWER_LOG_HEADER, ANSWER_THREAD_HEADER, EVENT_STREAM_HEADERS, EventStream, HEARTBEAT_MS } from './event-stream'

export interface AskRouteOptions {
  heartbeatMs?: number
  /** Questions and agent runs a minute per account (ASK_RATE_LIMIT); 0 or unset: no limit. */
  questionsPerMinute?: number
}

export const askRoutes =
  (ask: AskService, options: AskRouteOptions = {}): FastifyPluginAsyncZod =>
  async (app) => {
    // Asking may cost a model call: both ways to ask (and agent runs, which start here too) share one count per
    // account. One limiter for both routes (a route's own rateLimit setting would count each route apart). It runs once
    // the question is read and valid, so a refused form (400) costs nothing of the allowance.
    const askLimit = perAccountAskLimit(options.questionsPerMinute ?? 0)
    const limitAsking = askLimit ? { preHandler: app.rateLimit(askLimit) } : {}
    // The same question as /ask_qa, answered as server-sent events (delta, sources, reset, done, error): the words
    // as the model writes them. Refusals (400, 401, 403, 429) come as JSON before the stream starts.
    app.post('/ask_qa_stream', { config: { access: 'user' }, ...limitAsking, schema: { tags: ['ask'], body: AskBody } }, async (request, reply) => {
      const question = await ask.openStream(currentUser(request), request.body)
      const stream = new EventStream(options.heartbeatMs ?? HEARTBEAT_MS)
      // The asker leaving (another page, a reload) does not stop the answer: it is written and logged, and the asker
      // finds it in the thread (ADR 297). Events after the asker left go nowhere.
      void (async () => {
        try {
          for await (const { event, data } of ask.streamAnswer(question)) stream.send(event, data)
        } catch (error) {
          request.log.error({ err: error }, 'streamed answer failed')
          stream.send('error', { message: 'The answer could not be produced' })
        } finally {
          stream.end()
        }
      })()
      // The answer's address (its log, in its thread) comes first, with the headers: an asker who reloads or leaves
      // before the end finds it there (ADR 297).
      return reply.headers({ ...EVENT_STREAM_HEADERS, [ANSWER_LOG_HEADER]: String(question.logId), [ANSWER_THREAD_HEADER]: String(question.threadId) }).send(stream.body)
    })
    app.get('/ask_models', { config: { access: 'user' }, schema: { tags: ['ask'], response: { 200: AskModels } } }, () => ask.models())
    app.post('/ask_qa', { config: { access: 'user' }, ...limitAsking, schema: { tags: ['ask'], body: AskBody, response: { 200: AskAnswer } } }, (request) =>
      ask.ask(currentUser(request), request.body),
    )
    app.post('/ask_qa_answer', { config: { access: 'user' }, schema: { tags: ['ask'], body: AskAnswerBody, response: { 200: AskAnswer } } }, (request) =>
      ask.answerOf(currentUser(request), request.body.task_id),
    )
    // Conversations: the caller's own threads only (anyone else's is answered 404, as if it did not exist).
    app.get('/ask_thread', { config: { access: 'user' }, schema: { tags: ['ask'], querystring: AskThreadQuery, response: { 200: AskThread } } }, (request) =>
      ask.thread(currentUser(request), request.query.thread_id),
    )
    app.get('/ask_threads', { config: { access: 'user' }, schema: { tags: ['ask'], querystring: AskThreadsQuery, response: { 200: AskThreads } } }, (request) =>
      ask.threads(currentUser(request), request.query.limit, request.query.offset),
    )
    app.get('/answer', { config: { access: 'user' }, schema: { tags: ['ask'], querystring: LogIdQuery, response: { 200: AskAnswer } } }, (request) =>
      ask.answerOfLog(currentUser(request), request.query.log_id),
    )
  }
