import type { z } from 'zod'
import { ErrorBody } from '../../contracts/common'
import { backendFetch } from './backend-fetch.server'
import { clientAddressHeader } from '~/utils/client-address.server'
import { getEnv } from '~/utils/env.server'

/**
 * A failed backend call: the backend's status and error body. It is also the answer for the browser: a loader or
 * action that does not handle it lets it go, and Remix answers it like any thrown response (a 4xx keeps its status
 * and the backend's reason, shown by the error boundary; a backend failure, 500, is a 502 here). So a refusal of the
 * backend (403 for a role, 400 for a bad value, 404) never turns into a 500 of the web server.
 */
export class ApiError extends Response {
  /** The backend's error body: its reason (message) and any field errors (details). */
  readonly details: ErrorBody

  /** Seconds to wait before asking again, from the backend's Retry-After (a 429 of a limit); null without one. */
  readonly retryAfter: string | null

  constructor(status: number, body: ErrorBody, options: { retryAfter?: string | null } = {}) {
    const answered = status === 500 ? 502 : Math.min(Math.max(status, 400), 599)
    const retryAfter = options.retryAfter && /^\d{1,6}$/.test(options.retryAfter) ? options.retryAfter : null
    super(JSON.stringify({ message: body.message }), {
      status: answered,
      statusText: /^[\x20-\x7e]{1,60}$/.test(body.error) ? body.error : '',
      headers: { 'Content-Type': 'application/json; charset=utf-8', ...(retryAfter ? { 'Retry-After': retryAfter } : {}) },
    })
    this.details = body
    this.retryAfter = retryAfter
  }

  /** The backend's reason, in words. */
  get message(): string {
    return this.details.message
  }

  /** Field errors keyed by backend field name. */
  fieldErrors(): Record<string, string[]> {
    const errors: Record<string, string[]> = {}
    for (const detail of this.details.details ?? []) (errors[detail.field] ??= []).push(detail.message)
    return errors
  }
}

/** How the web server speaks for a user to the backend: their bearer token, renewable once when it is refused. */
export interface ApiSession {
  token: string
  renew?: () => Promise<string>
}

interface RequestOptions<Schema extends z.ZodType> {
  session?: ApiSession
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
  query?: Record<string, string | number | boolean | undefined | null>
  body?: unknown
  schema: Schema
}

/**
 * Calls the backend with the server-held API key and parses the answer with its contract schema.
 * Throws ApiError on a 4xx/5xx answer (with the backend's error body) or an answer that breaks the contract.
 */
export async function callApi<Schema extends z.ZodType>(path: string, options: RequestOptions<Schema>): Promise<z.infer<Schema>> {
  try {
    return await send(path, options, options.session?.token)
  } catch (error) {
    // A token from before a backend restart (or expired early): renew it once and try again.
    if (error instanceof ApiError && error.status === 401 && options.session?.renew) return send(path, options, await options.session.renew())
    throw error
  }
}

async function send<Schema extends z.ZodType>(path: string, options: RequestOptions<Schema>, token: string | undefined): Promise<z.infer<Schema>> {
  const env = getEnv()
  const url = new URL(path, env.API_BASE_URL)
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value))
  }
  let response: Response
  try {
    response = await backendFetch(url, {
      method: options.method ?? 'GET',
      headers: {
        apikey: env.API_KEY,
        ...clientAddressHeader(),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(env.API_TIMEOUT_MS),
    })
  } catch (error) {
    throw new ApiError(503, { success: false, error: 'Service Unavailable', message: `The backend could not be reached (${(error as Error).message})` })
  }
  const payload: unknown = await response.json().catch(() => null)
  if (!response.ok) {
    const parsed = ErrorBody.safeParse(payload)
    throw new ApiError(
      response.status,
      parsed.success ? parsed.data : { success: false, error: response.statusText || 'Error', message: `The backend answered ${response.status}` },
      { retryAfter: response.headers.get('retry-after') },
    )
  }
  const parsed = options.schema.safeParse(payload)
  if (!parsed.success) {
    throw new ApiError(502, { success: false, error: 'Bad Gateway', message: `The backend's answer to ${path} did not match its contract` })
  }
  return parsed.data
}

/** A backend call whose answer is a file: the raw Response, for resource routes to check and stream. */
export async function callApiForFile(path: string, options: { method?: 'GET' | 'POST'; body?: unknown; query?: Record<string, string>; session?: ApiSession }): Promise<Response> {
  const env = getEnv()
  const url = new URL(path, env.API_BASE_URL)
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value)
  const send = (token: string | undefined) =>
    backendFetch(url, {
      method: options.method ?? 'GET',
      headers: {
        apikey: env.API_KEY,
        ...clientAddressHeader(),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(env.API_TIMEOUT_MS),
    })
  const response = await send(options.session?.token)
  if (response.status === 401 && options.session?.renew) return send(await options.session.renew())
  return response
}
