import { z } from 'zod'

const isBlankSection = (section: unknown) => {
  if (!section || typeof section !== 'object') return true
  const { title, instructions } = section as { title?: unknown; instructions?: unknown }
  return !String(title ?? '').trim() && !String(instructions ?? '').trim()
}

const Section = z.object({
  title: z
    .string({ error: 'Please enter a section title' })
    .trim()
    .min(1, 'Please enter a section title')
    .max(200, 'A section title is at most 200 characters'),
  instructions: z.string().trim().max(5000, 'Section instructions are at most 5000 characters').default(''),
})

/** Said beside the sections when none is left to save (the backend refuses such a template too). */
export const NO_SECTIONS_MESSAGE = 'Add at least one section: the government agent writes the document section by section.'

/**
 * The template form, with the limits of contracts/templates.ts (the backend checks again and its field errors land
 * on these fields). Blank section rows at the end are left out, so the form can always offer an empty row; only
 * trailing rows are dropped, so every other section keeps its position and its errors stay beside it. What is left
 * must be at least one section.
 */
export const TemplateForm = z.object({
  name: z.string({ error: 'Please enter a name' }).trim().min(1, 'Please enter a name').max(200, 'A name is at most 200 characters'),
  description: z.string().trim().max(2000, 'A description is at most 2000 characters').default(''),
  instructions: z.string().trim().max(20000, 'Instructions are at most 20000 characters').default(''),
  sections: z.preprocess(
    (sections) => {
      // Every row removed: the form posts no sections at all.
      if (sections === undefined) return []
      if (!Array.isArray(sections)) return sections
      const kept = [...sections]
      while (kept.length && isBlankSection(kept[kept.length - 1])) kept.pop()
      return kept
    },
    z
      .array(Section)
      .min(1, NO_SECTIONS_MESSAGE)
      .max(50, 'A template has at most 50 sections')
      .superRefine((sections, context) => {
        // The agent writes one heading per section, so two of the same title could not be told apart.
        const seen = new Set<string>()
        sections.forEach((section, index) => {
          const key = section.title.toLowerCase()
          if (seen.has(key)) context.addIssue({ code: 'custom', path: [index, 'title'], message: `Another section is already titled "${section.title}"` })
          seen.add(key)
        })
      }),
  ),
})
export type TemplateFormValue = z.infer<typeof TemplateForm>
