import { afterEach, describe, expect, it, vi } from 'vitest'
import { EventStream, HEARTBEAT_MS } from './event-stream'

afterEach(() => {
  vi.useRealTimers()
})

async function read(stream: EventStream): Promise<string> {
  let text = ''
  for await (const chunk of stream.body) text += chunk.toString()
  return text
}

describe('the event stream', () => {
  it('writes each event as an event line and one JSON data line', async () => {
    const stream = new EventStream()
    stream.send('delta', { text: 'Line one\nline two' })
    stream.send('done', { result: 'ok' })
    stream.end()
    expect(await read(stream)).toBe(': stream open\n\nevent: delta\ndata: {"text":"Line one\\nline two"}\n\nevent: done\ndata: {"result":"ok"}\n\n')
  })

  it('sends a heartbeat comment at least every 15 seconds while the answer is quiet, and none after the end', async () => {
    vi.useFakeTimers()
    expect(HEARTBEAT_MS).toBeLessThanOrEqual(15_000)
    const stream = new EventStream()
    vi.advanceTimersByTime(HEARTBEAT_MS * 3)
    stream.end()
    vi.advanceTimersByTime(HEARTBEAT_MS * 3)
    const text = await read(stream)
    expect(text.match(/^: heartbeat$/gm)).toHaveLength(3)
  })

  it('ignores events after the reader has gone', () => {
    const stream = new EventStream()
    stream.body.destroy()
    expect(() => stream.send('delta', { text: 'late' })).not.toThrow()
    stream.end()
  })
})
