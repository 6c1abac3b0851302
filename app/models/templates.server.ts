import { TemplateAnswer, TemplateChanged, TemplatesPage, type TemplateInput, type TemplateUpdate } from '../../contracts/templates'
import { callApi, type ApiSession } from './api.server'

export function listTemplates(session: ApiSession) {
  return callApi('/admin/get_templates', { session, schema: TemplatesPage })
}

export function getTemplate(session: ApiSession, id: number) {
  return callApi(`/admin/get_templates/${id}`, { session, schema: TemplateAnswer })
}

export function createTemplate(session: ApiSession, input: TemplateInput) {
  return callApi('/admin/create_template', { session, method: 'POST', body: input, schema: TemplateChanged })
}

export function updateTemplate(session: ApiSession, update: TemplateUpdate) {
  return callApi('/admin/update_template', { session, method: 'PUT', body: update, schema: TemplateChanged })
}

export function deleteTemplate(session: ApiSession, id: number) {
  return callApi('/admin/delete_template', { session, method: 'DELETE', query: { id }, schema: TemplateChanged })
}
