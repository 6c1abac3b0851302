import { NO_SECTIONS_MESSAGE, type Template, type TemplateAnswer, type TemplateChanged, type TemplateInput, type TemplatesPage, type TemplateUpdate } from '../../../../contracts/templates'
import type { Database } from '../../db/database'
import { ConflictError, InvalidInputError, NotFoundError } from '../../errors'
import { templatesRepository as repository, type TemplateRecord } from './templates.repository'

const toTemplate = (template: TemplateRecord): Template => ({
  id: template.id,
  name: template.name,
  description: template.description,
  instructions: template.instructions,
  sections: template.sections.map((section) => ({ title: section.title, instructions: section.instructions })),
  created_at: template.createdAt.toISOString(),
  updated_at: template.updatedAt.toISOString(),
})

const nameTaken = (name: string) => new ConflictError(`A template named "${name}" already exists`, 'name')

/** The templates the government agent fills in: a name, instructions and ordered output sections. */
export class TemplatesService {
  constructor(private readonly db: Database) {}

  async listTemplates(): Promise<TemplatesPage> {
    const templates = await repository.listTemplates(this.db)
    return { success: true, rows: templates.map(toTemplate), total_count: templates.length }
  }

  async getTemplate(id: number): Promise<TemplateAnswer> {
    const template = await repository.findTemplate(this.db, id)
    if (!template) throw new NotFoundError(`No template with id ${id}`)
    return { success: true, ...toTemplate(template) }
  }

  async createTemplate(input: TemplateInput): Promise<TemplateChanged> {
    const created = await repository.insertTemplate(this.db, input)
    if ('isNameTaken' in created) throw nameTaken(input.name)
    return { success: true, message: 'Template added', id: created.id }
  }

  /**
   * Changes the fields given and keeps the others. A template saved without sections before they were required is
   * changed only together with its sections, so no save leaves it unusable by the government agent.
   */
  async updateTemplate({ id, ...changes }: TemplateUpdate): Promise<TemplateChanged> {
    if (!changes.sections) {
      const template = await repository.findTemplate(this.db, id)
      if (template && template.sections.length === 0) throw new InvalidInputError('sections', NO_SECTIONS_MESSAGE)
    }
    const result = await repository.updateTemplate(this.db, id, changes)
    if ('isNameTaken' in result) throw nameTaken(changes.name ?? '')
    if (!result.isUpdated) throw new NotFoundError(`No template with id ${id}`)
    return { success: true, message: 'Template updated', id }
  }

  async deleteTemplate(id: number): Promise<TemplateChanged> {
    if (!(await repository.deleteTemplate(this.db, id))) throw new NotFoundError(`No template with id ${id}`)
    return { success: true, message: 'Template deleted', id }
  }
}
