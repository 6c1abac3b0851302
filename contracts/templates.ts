import { z } from 'zod'

// PostgreSQL text and jsonb cannot hold NUL; refusing it here makes it a 400 instead of a failed write.
const NO_NUL = /^[^\u0000]*$/
const MAX_ID = 2_147_483_647 // PostgreSQL integer

/** One part of the document the government agent writes: its heading and what goes under it. */
export const TemplateSection = z.object({
  title: z.string().trim().min(1, 'a section title is required').max(200, 'a section title is at most 200 characters').regex(NO_NUL, 'a section title cannot contain NUL'),
  instructions: z.string().trim().max(5000, 'section instructions are at most 5000 characters').regex(NO_NUL, 'section instructions cannot contain NUL').default(''),
})
export type TemplateSection = z.infer<typeof TemplateSection>

const TemplateName = z.string().trim().min(1, 'name is required').max(200, 'name is at most 200 characters').regex(NO_NUL, 'name cannot contain NUL')
const TemplateDescription = z.string().trim().max(2000, 'description is at most 2000 characters').regex(NO_NUL, 'description cannot contain NUL')
const TemplateInstructions = z.string().trim().max(20000, 'instructions are at most 20000 characters').regex(NO_NUL, 'instructions cannot contain NUL')
const TemplateId = z.coerce.number().int().positive('id is a positive integer').max(MAX_ID, 'id is not a template id')

/** Said when a template would have no sections: the government agent writes the document section by section. */
export const NO_SECTIONS_MESSAGE = 'a template has at least one section'

// The agent writes one heading per section, so two sections of the same title would be indistinguishable.
const TemplateSections = z
  .array(TemplateSection)
  .min(1, NO_SECTIONS_MESSAGE)
  .max(50, 'a template has at most 50 sections')
  .superRefine((sections, context) => {
    const seen = new Set<string>()
    sections.forEach((section, index) => {
      const key = section.title.toLowerCase()
      if (seen.has(key)) context.addIssue({ code: 'custom', path: [index, 'title'], message: `section title "${section.title}" appears twice` })
      seen.add(key)
    })
  })

/** Body of POST /admin/create_template. */
export const TemplateInput = z.object({
  name: TemplateName,
  description: TemplateDescription.default(''),
  instructions: TemplateInstructions.default(''),
  // Left out, the sections are an empty list, refused with the same message.
  sections: TemplateSections.prefault([]),
})
export type TemplateInput = z.infer<typeof TemplateInput>

/** Body of PUT /admin/update_template: the template's id and the fields to change; a field left out keeps its value. */
export const TemplateUpdate = z.object({
  id: TemplateId,
  name: TemplateName.optional(),
  description: TemplateDescription.optional(),
  instructions: TemplateInstructions.optional(),
  sections: TemplateSections.optional(),
})
export type TemplateUpdate = z.infer<typeof TemplateUpdate>

export const TemplateIdParams = z.object({ id: TemplateId })
export const TemplateIdQuery = TemplateIdParams

export const Template = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  instructions: z.string(),
  sections: z.array(z.object({ title: z.string(), instructions: z.string() })),
  created_at: z.string(),
  updated_at: z.string(),
})
export type Template = z.infer<typeof Template>

/** Answer of GET /admin/get_templates (SEED.md: rows, total_count). */
export const TemplatesPage = z.object({
  success: z.literal(true),
  rows: z.array(Template),
  total_count: z.number().int(),
})
export type TemplatesPage = z.infer<typeof TemplatesPage>

/** Answer of GET /admin/get_templates/{id}: the template itself, flagged like every other answer. */
export const TemplateAnswer = Template.extend({ success: z.literal(true) })
export type TemplateAnswer = z.infer<typeof TemplateAnswer>

/** Answer of create, update and delete: the toast's message and the template's id. */
export const TemplateChanged = z.object({ success: z.literal(true), message: z.string(), id: z.number().int() })
export type TemplateChanged = z.infer<typeof TemplateChanged>
