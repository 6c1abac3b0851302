import { describe, expect, it } from 'vitest'
import { ApiError } from './api.server'

describe('ApiError', () => {
  it("is the backend's refusal as an answer: its status and its reason, which Remix answers when a route lets it go", async () => {
    const refused = new ApiError(403, { success: false, error: 'Forbidden', message: 'Editors only' })
    expect(refused).toBeInstanceOf(Response)
    expect(refused.status).toBe(403)
    expect(refused.statusText).toBe('Forbidden')
    expect(refused.message).toBe('Editors only')
    expect(await refused.json()).toEqual({ message: 'Editors only' })
  })

  it("answers a backend failure as a bad gateway, and keeps the backend's body for the routes that handle it", () => {
    const failed = new ApiError(500, { success: false, error: 'Internal Server Error', message: 'boom' })
    expect(failed.status).toBe(502)
    const invalid = new ApiError(400, { success: false, error: 'Bad Request', message: 'Invalid', details: [{ field: 'title', message: 'title is required' }] })
    expect(invalid.fieldErrors()).toEqual({ title: ['title is required'] })
    expect(invalid.details.error).toBe('Bad Request')
    expect(new ApiError(404, { success: false, error: 'bad\nname', message: 'gone' }).statusText).toBe('')
  })
})
