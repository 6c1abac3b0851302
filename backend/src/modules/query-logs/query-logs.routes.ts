import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import {
  FavoriteBody,
  FavoriteDeleteQuery,
  FavoriteSaved,
  FavoritesAnswer,
  FeedbackBody,
  IdQuery,
  ListCommentBody,
  ListCommentUpdate,
  LogChanged,
  LogIdQuery,
  MainCommentBody,
  QueryLogAnswer,
  QueryLogsPage,
  QueryLogsQuery,
} from '../../../../contracts/query-logs'
import { InvalidInputError } from '../../errors'
import { currentUser } from '../../plugins/access'
import type { QueryLogsService } from './query-logs.service'

const tags = ['query logs']
const Csv = z.string().describe('text/csv')

export const queryLogsRoutes =
  (logs: QueryLogsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/query_logs', { config: { access: 'editor' }, schema: { tags, querystring: QueryLogsQuery, response: { 200: QueryLogsPage } } }, (request) =>
      logs.page(currentUser(request), request.query),
    )

    app.get('/query_logs/query_log', { config: { access: 'user' }, schema: { tags, querystring: LogIdQuery, response: { 200: QueryLogAnswer } } }, async (request) => ({
      success: true as const,
      message: 'Query log',
      result: [await logs.one(currentUser(request), request.query.log_id)],
    }))

    app.put('/ask_qa_feedback', { config: { access: 'user' }, schema: { tags, body: FeedbackBody, response: { 200: LogChanged } } }, async (request) => ({
      success: true as const,
      message: 'Feedback sent',
      result: await logs.setFeedback(currentUser(request), request.body.log_id, request.body.feedback, request.body.reason),
    }))

    app.put('/query_logs/comment', { config: { access: 'editor' }, schema: { tags, body: MainCommentBody, response: { 200: LogChanged } } }, async (request) => {
      const { log, message } = await logs.setMainComment(currentUser(request), request.body.log_id, request.body.comment)
      return { success: true as const, message, result: log }
    })

    app.delete('/query_logs/comment', { config: { access: 'editor' }, schema: { tags, querystring: LogIdQuery, response: { 200: LogChanged } } }, async (request) => {
      const { log } = await logs.setMainComment(currentUser(request), request.query.log_id, null)
      return { success: true as const, message: 'Comment deleted', result: log }
    })

    app.post('/query_logs/comments', { config: { access: 'editor' }, schema: { tags, body: ListCommentBody, response: { 200: LogChanged } } }, async (request) => ({
      success: true as const,
      message: 'Comment added',
      result: await logs.addComment(currentUser(request), request.body.log_id, request.body.comment),
    }))

    app.put('/query_logs/comments', { config: { access: 'editor' }, schema: { tags, body: ListCommentUpdate, response: { 200: LogChanged } } }, async (request) => ({
      success: true as const,
      message: 'Comment updated',
      result: await logs.updateComment(currentUser(request), request.body.id, request.body.comment),
    }))

    app.delete('/query_logs/comments', { config: { access: 'editor' }, schema: { tags, querystring: IdQuery, response: { 200: LogChanged } } }, async (request) => ({
      success: true as const,
      message: 'Comment deleted',
      result: await logs.deleteComment(currentUser(request), request.query.id),
    }))

    app.get('/query_logs/query_favorites', { config: { access: 'user' }, schema: { tags, response: { 200: FavoritesAnswer } } }, async (request) => ({
      success: true as const,
      result: await logs.favorites(currentUser(request)),
    }))

    // With comment_list_id it changes that entry of the log's comment list (SEED.md §7); otherwise it saves the query.
    app.post('/query_logs/add_query_favorite', { config: { access: 'user' }, schema: { tags, body: FavoriteBody, response: { 200: FavoriteSaved } } }, async (request) => {
      const { comment_list_id: commentListId } = request.body
      if (commentListId) {
        const id = await logs.saveListComment(currentUser(request), request.body.log_id, commentListId, request.body.comment)
        return { success: true as const, message: 'Comment updated', error: null, id }
      }
      return {
        success: true as const,
        message: request.body.id ? 'Saved query updated' : 'Query saved',
        error: null,
        id: await logs.saveFavorite(currentUser(request), request.body),
      }
    })

    app.delete(
      '/query_logs/delete_query_favorite',
      { config: { access: 'user' }, schema: { tags, querystring: FavoriteDeleteQuery, response: { 200: z.object({ success: z.literal(true), message: z.string() }) } } },
      async (request) => {
        if (request.query.comment_list_id) {
          await logs.deleteListComment(currentUser(request), request.query.comment_list_id)
          return { success: true as const, message: 'Comment deleted' }
        }
        if (!request.query.id) throw new InvalidInputError('id', 'id is required')
        await logs.deleteFavorite(currentUser(request), request.query.id)
        return { success: true as const, message: 'Saved query deleted' }
      },
    )

    app.get('/query_logs/query_log_csv', { config: { access: 'editor' }, schema: { tags, produces: ['text/csv'], response: { 200: Csv } } }, async (request, reply) => {
      const csv = await logs.csv(currentUser(request))
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="query_logs.csv"').send(csv)
    })

    app.get('/admin/query_log_ds_csv', { config: { access: 'editor' }, schema: { tags, produces: ['text/csv'], response: { 200: Csv } } }, async (request, reply) => {
      const csv = await logs.datasetCsv(currentUser(request))
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="query_logs_dataset.csv"').send(csv)
    })
  }
