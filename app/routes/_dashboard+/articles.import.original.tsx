import type { LoaderFunctionArgs } from '@remix-run/node'
import { ApiError } from '~/models/api.server'
import { fetchOriginal } from '~/models/ingest.server'
import { requireApiSession } from '~/utils/auth.server'

// The headers of the backend's answer that describe the file and keep a browser from running it.
const PASSED_HEADERS = ['content-type', 'content-length', 'content-disposition', 'content-security-policy', 'x-content-type-options']

/** The original of an uploaded file, by its s3_key, streamed through the web server (which holds the API key). */
export async function loader({ request }: LoaderFunctionArgs) {
  const s3Key = new URL(request.url).searchParams.get('s3_key')
  if (!s3Key) throw new Response('s3_key is required', { status: 400 })
  try {
    const original = await fetchOriginal(await requireApiSession(request), s3Key)
    const headers = new Headers()
    for (const name of PASSED_HEADERS) {
      const value = original.headers.get(name)
      if (value) headers.set(name, value)
    }
    return new Response(original.body, { status: 200, headers })
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new Response('There is no file with this key.', { status: 404 })
    throw error
  }
}
