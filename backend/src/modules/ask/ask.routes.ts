import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { AskAnswer, AskAnswerBody, AskBody } from '../../../../contracts/ask'
import { LogIdQuery } from '../../../../contracts/query-logs'
import { currentUser } from '../../plugins/access'
import type { AskService } from './ask.service'

export const askRoutes =
  (ask: AskService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post('/ask_qa', { config: { access: 'user' }, schema: { tags: ['ask'], body: AskBody, response: { 200: AskAnswer } } }, (request) =>
      ask.ask(currentUser(request), request.body),
    )
    app.post('/ask_qa_answer', { config: { access: 'user' }, schema: { tags: ['ask'], body: AskAnswerBody, response: { 200: AskAnswer } } }, (request) =>
      ask.answerOf(currentUser(request), request.body.task_id),
    )
    app.get('/answer', { config: { access: 'user' }, schema: { tags: ['ask'], querystring: LogIdQuery, response: { 200: AskAnswer } } }, (request) =>
      ask.answerOfLog(currentUser(request), request.query.log_id),
    )
  }
