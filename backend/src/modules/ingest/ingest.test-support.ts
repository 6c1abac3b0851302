import { TEST_ADMIN_PASSWORD, TEST_API_KEY, type TestBackend } from '../../testing/test-backend'

/** Headers of a signed-in administrator, for calls `server.call` cannot make (multipart, binary answers). */
export async function adminHeaders(server: TestBackend): Promise<Record<string, string>> {
  const signIn = await server.call('/auth/login', {
    method: 'POST',
    body: { username: server.config.ADMIN_USERNAME, password: TEST_ADMIN_PASSWORD },
    as: 'anonymous',
  })
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(signIn.body)}`)
  return { apikey: TEST_API_KEY, authorization: `Bearer ${signIn.body.access_token}` }
}

export interface UploadFile {
  name: string
  bytes: Uint8Array | string
  type?: string
}

/** POSTs files to /admin/upload_recovery as a browser form would (multipart/form-data). */
export async function uploadFiles(server: TestBackend, files: UploadFile[], fields: Record<string, string> = {}) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  for (const file of files) {
    const bytes = typeof file.bytes === 'string' ? new TextEncoder().encode(file.bytes) : file.bytes
    form.append('files', new Blob([new Uint8Array(bytes)], { type: file.type ?? 'application/octet-stream' }), file.name)
  }
  const response = await fetch(`${server.baseUrl}/admin/upload_recovery`, { method: 'POST', headers: await adminHeaders(server), body: form })
  return { status: response.status, body: (await response.json()) as any }
}

/** Polls an ingestion job until it ends (or `until` says enough), returning its last progress answer. */
export async function waitForIngest(server: TestBackend, taskId: string, until: (body: any) => boolean = (body) => !['queued', 'running'].includes(body.status)) {
  for (let attempt = 0; attempt < 600; attempt++) {
    const { body } = await server.call(`/admin/ingest_jobs/${taskId}`)
    if (until(body)) return body
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`ingest task ${taskId} did not get there`)
}

/** Every draft (all pages of the drafts list). */
export async function listAllDrafts(server: TestBackend): Promise<Array<{ id: number; title: string; metadata: Record<string, any> }>> {
  const drafts = []
  for (let first = 0; ; first += 500) {
    const { body } = await server.call(`/admin/get_temp_articles?first=${first}&rows=500`)
    drafts.push(...body.rows)
    if (drafts.length >= body.total_count || body.rows.length === 0) return drafts
  }
}

/** Deletes every draft: a crawl or upload then starts from a knowledge base without them (what is there makes no draft). */
export async function forgetDrafts(server: TestBackend): Promise<void> {
  const { status, body } = await server.call('/admin/delete_all_temp_articles', { method: 'DELETE', body: {} })
  if (status !== 200) throw new Error(`deleting the drafts failed: ${JSON.stringify(body)}`)
}
