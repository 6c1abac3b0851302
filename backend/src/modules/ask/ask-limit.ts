import type { RateLimitOptions } from '@fastify/rate-limit'
import { AppError } from '../../errors'

/**
 * The limit on asking (questions, streamed or not, and agent runs): at most `perMinute` a minute per account, counted
 * by @fastify/rate-limit in the database (every backend process counts together, ADR 310). It is keyed by the
 * caller's account (a signed-in user, or an integration key's own account), never by address: the web server asks
 * for every browser from one address. It runs after the access check, so the caller is known, and before the
 * handler, so a refused question is never answered or logged. Undefined (no limit) when `perMinute` is 0.
 */
export function perAccountAskLimit(perMinute: number): RateLimitOptions | undefined {
  if (perMinute <= 0) return undefined
  return {
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => (request.user ? `account:${request.user.id}` : `address:${request.clientAddress}`),
    errorResponseBuilder: (_request, context) => new AppError(429, 'Too Many Requests', askLimitMessage(perMinute, context.ttl)),
  }
}

/** The refusal in words, with the wait (Retry-After says it too). */
export function askLimitMessage(perMinute: number, waitMs: number): string {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000))
  const questions = perMinute === 1 ? '1 question' : `${perMinute} questions`
  return `You have reached the limit of ${questions} a minute (agent runs count too). Please wait ${seconds === 1 ? '1 second' : `${seconds} seconds`} and ask again.`
}
