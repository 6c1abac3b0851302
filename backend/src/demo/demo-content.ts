import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import type { Database } from '../db/database'
import type { ArticlesService } from '../modules/articles/articles.service'

const DEMO_MARKER = 'demo_content_loaded'

/** Reads the demo articles: Markdown files whose first line is `# Title`. */
export async function readDemoArticles(directory: string): Promise<{ title: string; content: string }[]> {
  const files = (await readdir(directory)).filter((file) => file.endsWith('.md')).sort()
  return Promise.all(
    files.map(async (file) => {
      const text = await readFile(path.join(directory, file), 'utf8')
      const [firstLine, ...rest] = text.split('\n')
      return { title: firstLine.replace(/^#\s*/, '').trim(), content: rest.join('\n').trim() }
    }),
  )
}

/**
 * On the first start of an empty installation, publishes the product's user guide so that a newcomer can ask
 * something useful at once. Runs once: deleting the demo articles later does not bring them back. The process
 * that writes the marker first loads them, so processes starting together on one database load them once.
 */
export async function loadDemoContentOnce(db: Database, articles: ArticlesService, directory: string): Promise<number> {
  const [claimed] = await db.query(`INSERT INTO app_state (key, value) VALUES ($1, '{"loaded":0}'::jsonb) ON CONFLICT (key) DO NOTHING RETURNING key`, [DEMO_MARKER])
  if (!claimed) return 0
  const [{ count }] = await db.query<{ count: number }>(`SELECT (SELECT COUNT(*) FROM articles) + (SELECT COUNT(*) FROM temp_articles) AS count`)
  let loaded = 0
  if (Number(count) === 0) {
    const demo = await readDemoArticles(directory)
    loaded = (await articles.createPublished(demo.map((article) => ({ ...article, metadata: { source: article.title, origin: 'demo' } })))).length
  }
  await db.query(`UPDATE app_state SET value = $2::jsonb WHERE key = $1`, [DEMO_MARKER, JSON.stringify({ loaded })])
  return loaded
}
