import type { ReadArticle } from '../../../contracts/articles'

/** Where an article came from, from what ingestion wrote in its metadata (see modules/ingest). */
export function sourceOf(metadata: Record<string, unknown>): ReadArticle['source'] {
  const text = (key: string) => (typeof metadata[key] === 'string' && (metadata[key] as string).trim() ? (metadata[key] as string).trim() : null)
  const url = webAddress(text('url'))
  if (metadata.format === 'youtube' || text('video_id')) return { kind: 'video', name: text('url') ?? text('source'), url }
  if (text('file_name')) return { kind: 'file', name: text('file_name'), url: null }
  if (url) return { kind: 'web_page', name: url, url }
  return { kind: 'article', name: null, url: null }
}

/** An http(s) address as the URL parser writes it, or null: nothing else is offered as a link. */
function webAddress(value: string | null): string | null {
  if (!value) return null
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}
