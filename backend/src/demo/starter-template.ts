import type { TemplateInput } from '../../../contracts/templates'
import type { Database } from '../db/database'
import { templatesRepository } from '../modules/templates/templates.repository'

const STARTER_MARKER = 'starter_template_loaded'

/** The government agent's first template: a short briefing an administrator can use as it is, edit or delete. */
export const STARTER_TEMPLATE: Required<TemplateInput> = {
  name: 'Starter briefing',
  description: 'A short briefing note on a command, written from the knowledge base. A starting point: edit it or add your own templates in Settings.',
  instructions: 'Write for a busy reader in plain words. Use only what the sources say, and say plainly when the knowledge base has nothing on a point.',
  sections: [
    { title: 'Summary', instructions: 'The answer to the command in two or three sentences.' },
    { title: 'What the knowledge base says', instructions: 'The facts that bear on the command, each with its source.' },
    { title: 'Next steps', instructions: 'What the reader can do next, as the sources describe it; leave it out when they say nothing.' },
  ],
}

/**
 * On the first start of an installation, adds the starter template so that the government agent runs at once.
 * Runs once (deleting the template later does not bring it back), and only when there is no template yet; the
 * process that writes the marker first adds it, so processes starting together on one database add it once.
 */
export async function loadStarterTemplateOnce(db: Database): Promise<boolean> {
  const [claimed] = await db.query(`INSERT INTO app_state (key, value) VALUES ($1, '{"loaded":false}'::jsonb) ON CONFLICT (key) DO NOTHING RETURNING key`, [STARTER_MARKER])
  if (!claimed) return false
  const [{ count }] = await db.query<{ count: number }>(`SELECT COUNT(*)::int AS count FROM templates`)
  const isLoaded = count === 0 && 'id' in (await templatesRepository.insertTemplate(db, STARTER_TEMPLATE))
  await db.query(`UPDATE app_state SET value = $2::jsonb WHERE key = $1`, [STARTER_MARKER, JSON.stringify({ loaded: isLoaded })])
  return isLoaded
}
