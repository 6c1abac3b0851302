import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CancelAnswer, CancelBody } from '../../../../contracts/agents'
import { currentUser } from '../../plugins/access'
import type { AgentsService } from './agents.service'

// Runs start with POST /ask_qa (mode agent) and are read with POST /ask_qa_answer, like every answer.
export const agentsRoutes =
  (agents: AgentsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post('/ask_qa_cancel', { config: { access: 'user' }, schema: { tags: ['ask'], body: CancelBody, response: { 200: CancelAnswer } } }, (request) =>
      agents.cancel(currentUser(request), request.body.task_id),
    )
  }
