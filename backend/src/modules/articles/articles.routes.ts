import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  ArticleContent,
  ArticleIdBody,
  ArticleTitleBody,
  ArticleUpdate,
  Done,
  RecoveryAnswerBody,
  ArticleIdQuery,
  ArticleInput,
  ArticlesPage,
  CheckEmbeddingsQuery,
  DraftCreated,
  DraftsPage,
  DraftsQuery,
  LazyTableQuery,
  PublishBody,
  PublishProgress,
  ReadArticle,
  ReadArticleParams,
} from '../../../../contracts/articles'
import type { EmbeddingsProgress } from '../../../../contracts/embeddings'
import type { ArticlesService } from './articles.service'

export const articlesRoutes =
  (articles: ArticlesService, options: { /** The vectors' side of check_embeddings. */ embeddings?: () => Promise<EmbeddingsProgress> } = {}): FastifyPluginAsyncZod =>
  async (app) => {
    app.post('/admin/inject_article', { config: { access: 'editor' }, schema: { tags: ['articles'], body: ArticleInput, response: { 200: DraftCreated } } }, async (request) => {
      const id = await articles.createDraft(request.body)
      return { success: true as const, message: 'Draft saved', id }
    })

    app.get('/admin/get_temp_articles', { config: { access: 'editor' }, schema: { tags: ['articles'], querystring: DraftsQuery, response: { 200: DraftsPage } } }, (request) =>
      articles.listDrafts(request.query),
    )

    app.get('/admin/get_temp_content', { config: { access: 'editor' }, schema: { tags: ['articles'], querystring: ArticleIdQuery, response: { 200: ArticleContent } } }, (request) =>
      articles.draftContent(request.query.id),
    )

    app.post('/admin/do_embeddings', { config: { access: 'editor' }, schema: { tags: ['articles'], body: PublishBody.default({}), response: { 200: PublishProgress } } }, async (request) => {
      const job = await articles.startPublish(request.body.ids)
      return articles.publishProgress(job.id)
    })

    app.get('/admin/check_embeddings', { config: { access: 'editor' }, schema: { tags: ['articles'], querystring: CheckEmbeddingsQuery, response: { 200: PublishProgress } } }, async (request) => {
      const progress = await articles.publishProgress(request.query.task_id)
      return options.embeddings ? { ...progress, embeddings: await options.embeddings() } : progress
    })

    app.get('/admin/get_articles', { config: { access: 'editor' }, schema: { tags: ['articles'], querystring: LazyTableQuery, response: { 200: ArticlesPage } } }, (request) =>
      articles.listArticles(request.query),
    )

    app.put('/admin/update_doc', { config: { access: 'editor' }, schema: { tags: ['articles'], body: ArticleUpdate, response: { 200: ArticleContent } } }, (request) =>
      articles.updateArticle(request.body),
    )

    app.delete('/admin/delete_article', { config: { access: 'editor' }, schema: { tags: ['articles'], body: ArticleIdBody, response: { 200: Done } } }, async (request) => {
      await articles.deleteArticle(request.body.id)
      return { success: true as const, message: 'Article deleted', count: 1 }
    })

    app.delete('/admin/delete_article_by_title', { config: { access: 'editor' }, schema: { tags: ['articles'], body: ArticleTitleBody, response: { 200: Done } } }, async (request) => {
      const count = await articles.deleteArticlesByTitle(request.body.title)
      return { success: true as const, message: `${count} article${count === 1 ? '' : 's'} deleted`, count }
    })

    app.put('/admin/update_temp_doc', { config: { access: 'editor' }, schema: { tags: ['articles'], body: ArticleUpdate, response: { 200: ArticleContent } } }, (request) =>
      articles.updateDraft(request.body),
    )

    app.delete('/admin/delete_temp_article', { config: { access: 'editor' }, schema: { tags: ['articles'], body: ArticleIdBody, response: { 200: Done } } }, async (request) => {
      await articles.deleteDraft(request.body.id)
      return { success: true as const, message: 'Draft deleted', count: 1 }
    })

    app.delete('/admin/delete_all_temp_articles', { config: { access: 'editor' }, schema: { tags: ['articles'], response: { 200: Done } } }, async () => {
      const count = await articles.deleteAllDrafts()
      return { success: true as const, message: `${count} draft${count === 1 ? '' : 's'} deleted`, count }
    })

    app.post('/admin/upload_recovery_answer', { config: { access: 'editor' }, schema: { tags: ['articles'], body: RecoveryAnswerBody, response: { 200: DraftCreated } } }, async (request) => {
      const id = await articles.createDraftFromAnswer(request.body.question, request.body.answer, request.body.log_id)
      return { success: true as const, message: 'Draft saved', id }
    })

    // Anyone signed in reads an article: answers link their sources to it.
    app.get('/admin/get_content', { config: { access: 'user' }, schema: { tags: ['articles'], querystring: ArticleIdQuery, response: { 200: ArticleContent } } }, (request) =>
      articles.articleContent(request.query.id),
    )

    // The reader's view of an article: every signed-in role, with where each cited passage sits in the text.
    app.get('/read_article/:id', { config: { access: 'user' }, schema: { tags: ['articles'], params: ReadArticleParams, response: { 200: ReadArticle } } }, (request) =>
      articles.readArticle(request.params.id),
    )
  }
