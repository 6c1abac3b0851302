/** A failure the client can act on; the error handler turns it into a JSON body with this status. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message)
  }
}

export class NotFoundError extends AppError {
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super(404, 'Not Found', message, undefined, extra)
  }
}

export class InvalidInputError extends AppError {
  constructor(field: string, message: string) {
    super(400, 'Bad Request', message, field)
  }
}

export class ConflictError extends AppError {
  constructor(message: string, field?: string) {
    super(409, 'Conflict', message, field)
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super(413, 'Payload Too Large', message, undefined, extra)
  }
}

export class UnsupportedMediaError extends AppError {
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super(415, 'Unsupported Media Type', message, undefined, extra)
  }
}

/** The request was understood but its content cannot be turned into what was asked (e.g. a video without a transcript). */
export class UnprocessableError extends AppError {
  constructor(message: string, field?: string) {
    super(422, 'Unprocessable Entity', message, field)
  }
}

/** A service this backend depends on (a transcript service, a fetched site) failed or could not be reached. */
export class UpstreamError extends AppError {
  constructor(message: string) {
    super(502, 'Bad Gateway', message)
  }
}
