import { Blob } from 'node:buffer'
import { fetch as undiciFetch, FormData as UndiciFormData } from 'undici'

/**
 * Every call of the web server to the backend goes through Node's own HTTP client (undici), not the `fetch` the Remix
 * server installs (`@remix-run/web-fetch`): that one, aborted once a request's body has been sent (a reader who
 * leaves a streamed answer, or API_TIMEOUT_MS running out), cancels the body it still holds locked, and the rejection
 * nobody can catch ends the process (ADR 276).
 */
export function backendFetch(
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: string | BackendFormData; signal: AbortSignal },
): Promise<Response> {
  return undiciFetch(url, init) as unknown as Promise<Response>
}

/** A multipart body for backendFetch; its files are Node's own Blobs (`backendBlob`). */
export const BackendFormData = UndiciFormData
export type BackendFormData = UndiciFormData

/** A file's bytes as a Blob backendFetch sends (a File from the upload handler may come from another implementation). */
export async function backendBlob(file: { arrayBuffer(): Promise<ArrayBuffer>; type: string }) {
  return new Blob([await file.arrayBuffer()], { type: file.type })
}
