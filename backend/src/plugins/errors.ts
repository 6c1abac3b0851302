import type { FastifyError, FastifyInstance } from 'fastify'
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod'
import type { ErrorBody } from '../../../contracts/common'
import { isConnectionLost } from '../db/database'
import { AppError } from '../errors'

/** Translates every failure into a JSON error body: 4xx names the problem, 5xx hides internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || String(error.validationContext ?? 'body')
        return { field, message: issue.message ?? 'is invalid' }
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
