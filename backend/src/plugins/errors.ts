import type { FastifyError, FastifyInstance } from 'fastify'
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod'
import type { ErrorBody } from '../../../contracts/common'
import { isConnectionLost } from '../db/database'
import { AppError } from '../errors'

const ARTICLE_OF: Record<string, string> = { array: 'an array', object: 'an object', int: 'an integer', integer: 'an integer' }

/**
 * The schema library's own wording ("Invalid input: expected number, received NaN") in a plain sentence: a field that
 * was not sent "is required"; one of the wrong kind "must be a number". Messages the contracts wrote stay as they are.
 */
export function plainIssueMessage(field: string, message: string, isPresent: boolean): string {
  const options = /^Invalid option: expected one of (.+)$/.exec(message)?.[1]?.split('|')
  if (options && options.length > 1) return `${field} must be one of ${options.slice(0, -1).join(', ')} or ${options.at(-1)}`
  const unknown = /^Unrecognized keys?: (.+)$/.exec(message)?.[1]
  if (unknown !== undefined) return `${field} has ${unknown.includes(',') ? `unknown fields ${unknown}` : `an unknown field ${unknown}`}`
  const wrongType = /^Invalid input: expected (\w+), received (\w+)$/.exec(message)
  if (!wrongType) return message
  const [, expected, received] = wrongType as unknown as [string, string, string]
  if (!isPresent || received === 'undefined') return `${field} is required`
  return `${field} must be ${ARTICLE_OF[expected] ?? `a ${expected}`}`
}

/** Whether the request sent something at a validation issue's path ("/organization_id", "/items/0/name"). */
function sentAt(input: unknown, instancePath: string): boolean {
  let value = input
  for (const key of instancePath.split('/').filter(Boolean)) {
    if (value === null || typeof value !== 'object') return false
    value = (value as Record<string, unknown>)[key]
  }
  return value !== undefined && value !== null && value !== ''
}

/** Translates every failure into a JSON error body: 4xx names the problem, 5xx hides internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || String(error.validationContext ?? 'body')
        const context = error.validationContext ?? 'body'
        const input = context === 'querystring' ? request.query : context === 'params' ? request.params : context === 'headers' ? request.headers : request.body
        return { field, message: plainIssueMessage(field, issue.message ?? 'is invalid', issue.instancePath === '' || sentAt(input, issue.instancePath)) }
      })
      const body: ErrorBody = {
        success: false,
        error: 'Bad Request',
        message: details.map((detail) => (detail.message.includes(detail.field) ? detail.message : `${detail.field}: ${detail.message}`)).join('; '),
        details,
      }
      return reply.status(400).send(body)
    }
    if (error instanceof AppError) {
      const body: ErrorBody = {
        success: false,
        error: error.code,
        message: error.message,
        ...(error.field ? { details: [{ field: error.field, message: error.message }] } : {}),
        ...error.extra,
      }
      return reply.status(error.statusCode).send(body)
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its contract')
      return reply.status(500).send({ success: false, error: 'Internal Server Error', message: 'The server produced an invalid answer' })
    }
    // SQLSTATE class 22 (data exception: a number out of range, malformed text for a type) is always bad input
    // that slipped past a schema; answer 400 rather than 500, and log it so the schema gets fixed.
    if (typeof error.code === 'string' && /^22[0-9A-Z]{3}$/.test(error.code)) {
      request.log.warn({ err: error }, 'input reached the database unchecked')
      return reply.status(400).send({ success: false, error: 'Bad Request', message: 'A value in the request is out of range or malformed' })
    }
    // The database dropped the connection (a restart, a failover): the pool opens a new one, so a retry may succeed.
    if (isConnectionLost(error)) {
      request.log.warn({ err: error }, 'the database connection was lost')
      return reply.status(503).header('retry-after', '1').send({ success: false, error: 'Service Unavailable', message: 'The database is not reachable right now; try again shortly' })
    }
    const statusCode = error.statusCode ?? 500
    if (statusCode >= 400 && statusCode < 500) {
      const message = statusCode === 413 ? `Request body is larger than the limit of ${app.initialConfig.bodyLimit} bytes` : error.message
      return reply.status(statusCode).send({ success: false, error: reply.raw.statusMessage || 'Bad Request', message })
    }
    request.log.error({ err: error }, 'request failed')
    return reply.status(500).send({ success: false, error: 'Internal Server Error', message: 'Something went wrong on the server' })
  })

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ success: false, error: 'Not Found', message: `No route ${request.method} ${request.url.split('?')[0]}` })
  })
}
