import type { Queryable } from '../../db/database'

export interface TemplateSectionRecord {
  title: string
  instructions: string
}

export interface TemplateRecord {
  id: number
  name: string
  description: string
  instructions: string
  sections: TemplateSectionRecord[]
  createdAt: Date
  updatedAt: Date
}

/** What a template is written with; on update a field left undefined keeps its value. */
export interface TemplateFields {
  name: string
  description: string
  instructions: string
  sections: TemplateSectionRecord[]
}

interface TemplateDbRow {
  id: number
  name: string
  description: string
  instructions: string
  sections: TemplateSectionRecord[]
  created_at: Date
  updated_at: Date
}

const toRecord = (row: TemplateDbRow): TemplateRecord => ({
  id: row.id,
  name: row.name,
  description: row.description,
  instructions: row.instructions,
  sections: row.sections,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
})

/** Whether a failed write collided with the case-insensitive unique name. */
const isNameTaken = (error: unknown) => {
  const failure = error as { code?: string; constraint?: string }
  return failure.code === '23505' && failure.constraint === 'templates_name_idx'
}

/** SQL for the government agent's templates. */
export const templatesRepository = {
  async listTemplates(db: Queryable): Promise<TemplateRecord[]> {
    const rows = await db.query<TemplateDbRow>(`SELECT * FROM templates ORDER BY lower(name), id`)
    return rows.map(toRecord)
  },

  async findTemplate(db: Queryable, id: number): Promise<TemplateRecord | undefined> {
    const [row] = await db.query<TemplateDbRow>(`SELECT * FROM templates WHERE id = $1`, [id])
    return row ? toRecord(row) : undefined
  },

  /** Inserts a template; answers nameTaken instead of throwing when another template has the name. */
  async insertTemplate(db: Queryable, template: TemplateFields): Promise<{ id: number } | { isNameTaken: true }> {
    try {
      const [row] = await db.query<{ id: number }>(
        `INSERT INTO templates (name, description, instructions, sections) VALUES ($1, $2, $3, $4::jsonb) RETURNING id`,
        [template.name, template.description, template.instructions, JSON.stringify(template.sections)],
      )
      return { id: row.id }
    } catch (error) {
      if (isNameTaken(error)) return { isNameTaken: true }
      throw error
    }
  },

  async updateTemplate(db: Queryable, id: number, changes: Partial<TemplateFields>): Promise<{ isUpdated: boolean } | { isNameTaken: true }> {
    try {
      const rows = await db.query(
        `UPDATE templates SET name = COALESCE($2, name), description = COALESCE($3, description),
           instructions = COALESCE($4, instructions), sections = COALESCE($5::jsonb, sections), updated_at = now()
         WHERE id = $1 RETURNING id`,
        [id, changes.name ?? null, changes.description ?? null, changes.instructions ?? null, changes.sections ? JSON.stringify(changes.sections) : null],
      )
      return { isUpdated: rows.length > 0 }
    } catch (error) {
      if (isNameTaken(error)) return { isNameTaken: true }
      throw error
    }
  },

  async deleteTemplate(db: Queryable, id: number): Promise<boolean> {
    const rows = await db.query(`DELETE FROM templates WHERE id = $1 RETURNING id`, [id])
    return rows.length > 0
  },
}
