import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { TemplateAnswer, TemplateChanged, TemplateIdParams, TemplateIdQuery, TemplateInput, TemplatesPage, TemplateUpdate } from '../../../../contracts/templates'
import type { TemplatesService } from './templates.service'

export const templatesRoutes =
  (templates: TemplatesService): FastifyPluginAsyncZod =>
  async (app) => {
    // Anyone signed in reads templates: people pick one when they run the government agent.
    app.get('/admin/get_templates', { config: { access: 'user' }, schema: { tags: ['templates'], response: { 200: TemplatesPage } } }, () =>
      templates.listTemplates(),
    )

    app.get(
      '/admin/get_templates/:id',
      { config: { access: 'user' }, schema: { tags: ['templates'], params: TemplateIdParams, response: { 200: TemplateAnswer } } },
      (request) => templates.getTemplate(request.params.id),
    )

    app.post(
      '/admin/create_template',
      { config: { access: 'admin' }, schema: { tags: ['templates'], body: TemplateInput, response: { 200: TemplateChanged } } },
      (request) => templates.createTemplate(request.body),
    )

    app.put(
      '/admin/update_template',
      { config: { access: 'admin' }, schema: { tags: ['templates'], body: TemplateUpdate, response: { 200: TemplateChanged } } },
      (request) => templates.updateTemplate(request.body),
    )

    app.delete(
      '/admin/delete_template',
      { config: { access: 'admin' }, schema: { tags: ['templates'], querystring: TemplateIdQuery, response: { 200: TemplateChanged } } },
      (request) => templates.deleteTemplate(request.query.id),
    )
  }
