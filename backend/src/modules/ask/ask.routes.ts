import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { AskAnswer, AskAnswerBody, AskBody, AskModels, AskThread, AskThreadQuery, AskThreads, AskThreadsQuery } from '../../../../contracts/ask'
import { LogIdQuery } from '../../../../contracts/query-logs'
import { currentUser } from '../../plugins/access'
import type { AskService } from './ask.service'
import { EVENT_STREAM_HEADERS, EventStream, HEARTBEAT_MS } from './event-stream'

export const askRoutes =
  (ask: AskService, options: { heartbeatMs?: number } = {}): FastifyPluginAsyncZod =>
  async (app) => {
    // The same question as /ask_qa, answered as server-sent events (delta, sources, reset, done, error): the words
    // as the model writes them. Refusals (400, 401, 403) come as JSON before the stream starts.
    app.post('/ask_qa_stream', { config: { access: 'user' }, schema: { tags: ['ask'], body: AskBody } }, async (request, reply) => {
      const question = await ask.openStream(currentUser(request), request.body)
      const stream = new EventStream(options.heartbeatMs ?? HEARTBEAT_MS)
      const controller = new AbortController()
      // The asker left before the end: stop the model.
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) controller.abort(new Error('The asker left'))
      })
      void (async () => {
        try {
          for await (const { event, data } of ask.streamAnswer(question, controller.signal)) stream.send(event, data)
        } catch (error) {
          request.log.error({ err: error }, 'streamed answer failed')
          stream.send('error', { message: 'The answer could not be produced' })
        } finally {
          stream.end()
        }
      })()
      return reply.headers(EVENT_STREAM_HEADERS).send(stream.body)
    })
    app.get('/ask_models', { config: { access: 'user' }, schema: { tags: ['ask'], response: { 200: AskModels } } }, () => ask.models())
    app.post('/ask_qa', { config: { access: 'user' }, schema: { tags: ['ask'], body: AskBody, response: { 200: AskAnswer } } }, (request) =>
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
