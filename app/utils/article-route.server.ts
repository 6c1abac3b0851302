import type { Params } from '@remix-run/react'
import { ApiError } from '~/models/api.server'
import { getArticle } from '~/models/articles.server'
import { requireApiSession } from '~/utils/auth.server'
import { formatMegabytes } from '~/utils/byte-size'

/** The article id of an /articles/:id address; anything but a positive 32-bit integer is a 404, not a backend call. */
export function articleIdOf(params: Params) {
  const id = Number(params.id)
  if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) throw new Response('No such article', { status: 404 })
  return id
}

/** The loader of the article screens (view, edit, delete): the article, or a 404 page when it is gone. */
export async function loadArticle(request: Request, params: Params) {
  const id = articleIdOf(params)
  try {
    return { article: await getArticle(await requireApiSession(request), id) }
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new Response('This article does not exist or was deleted.', { status: 404 })
    throw error
  }
}

/**
 * The refusal of an article form whose text is over the backend's request limit (413, `BODY_LIMIT_BYTES`), said on
 * its content field, so that the form comes back with what was typed instead of an error page; null for any other error.
 */
export function tooLongContentErrors(error: unknown): { content: string[] } | null {
  if (!(error instanceof ApiError) || error.status !== 413) return null
  const limitBytes = Number(/limit of (\d+) bytes/.exec(error.message)?.[1])
  const limit = limitBytes > 0 ? ` (at most ${formatMegabytes(limitBytes)} at a time)` : ''
  return { content: [`This text is too long to save as one article${limit}. Split it into several articles.`] }
}
