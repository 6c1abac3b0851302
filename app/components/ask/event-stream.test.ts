import { describe, expect, it } from 'vitest'
import { applyStreamEvent, endStream, EventStreamParser, formatEvent, INITIAL_STREAM_STATE, STREAM_CUT_MESSAGE, type StreamEvent } from './event-stream'

const source = (id: number) => ({ page_content: `passage ${id}`, metadata: { source: `s${id}`, id, doc_id: id * 10, is_deleted: false, title: `Title ${id}`, score: 1 } })

const done = {
  command: 'How?',
  result: 'Open the form [1].',
  success: true,
  status: 'finished',
  error: null,
  log_agent_ask_qa: null,
  task_id: null,
  log_id: 7,
  source_list: [source(3)],
  found: true,
  note: null,
  unsupported: [],
  model: 'fixture-chat',
}

function parseAll(pieces: string[]): StreamEvent[] {
  const parser = new EventStreamParser()
  return [...pieces.flatMap((piece) => parser.push(piece)), ...parser.end()]
}

describe('EventStreamParser', () => {
  it('reads events cut anywhere, with LF, CRLF and CR line ends, skipping comments', () => {
    const text = ': stream open\n\nevent: delta\r\ndata: {"text":"Hel"}\r\n\r\nevent: delta\rdata: {"text":"lo"}\r\r: heartbeat\n\nevent: done\ndata: {"a":1}\n\n'
    const expected = [
      { event: 'delta', data: '{"text":"Hel"}' },
      { event: 'delta', data: '{"text":"lo"}' },
      { event: 'done', data: '{"a":1}' },
    ]
    expect(parseAll([text])).toEqual(expected)
    // Every cut point, including between CR and LF.
    for (let cut = 1; cut < text.length; cut++) expect(parseAll([text.slice(0, cut), text.slice(cut)])).toEqual(expected)
    expect(parseAll(text.split(''))).toEqual(expected)
  })

  it('joins data lines, defaults the type to message, ignores other fields and events without data', () => {
    expect(parseAll(['id: 4\nretry: 10\ndata: a\ndata:b\n\nevent: empty\n\ndata\n\n'])).toEqual([
      { event: 'message', data: 'a\nb' },
      { event: 'message', data: '' },
    ])
  })

  it('gives an event left without its closing blank line at the end', () => {
    expect(parseAll(['event: error\ndata: {"message":"x"}'])).toEqual([{ event: 'error', data: '{"message":"x"}' }])
  })

  it('reads back what formatEvent writes, line breaks in the data included', () => {
    expect(parseAll([formatEvent('delta', { text: 'two\nlines' })])).toEqual([{ event: 'delta', data: '{"text":"two\\nlines"}' }])
  })
})

describe('applyStreamEvent', () => {
  const run = (events: Array<[string, unknown]>) =>
    events.reduce((state, [event, data]) => applyStreamEvent(state, { event, data: typeof data === 'string' ? data : JSON.stringify(data) }), INITIAL_STREAM_STATE)

  it('adds deltas, follows the cited sources and completes with the whole answer', () => {
    const writing = run([
      ['delta', { text: 'Open' }],
      ['delta', { text: ' the form' }],
      ['sources', { sources: [source(3)] }],
    ])
    expect(writing).toMatchObject({ phase: 'writing', text: 'Open the form', sources: [source(3)] })
    const complete = applyStreamEvent(writing, { event: 'done', data: JSON.stringify(done) })
    expect(complete.phase).toBe('complete')
    expect(complete.text).toBe('Open the form [1].')
    expect(complete.answer).toMatchObject({ log_id: 7, result_document: null })
  })

  it('drops the text on reset and keeps its note for the quoted answer that follows', () => {
    const state = run([
      ['delta', { text: 'Half an ans' }],
      ['sources', { sources: [source(1)] }],
      ['reset', { note: 'The language model did not answer (server error); this answer quotes the sources directly.' }],
      ['delta', { text: 'Quoted.' }],
    ])
    expect(state.text).toBe('Quoted.')
    expect(state.sources).toEqual([])
    expect(state.note).toMatch(/did not answer/)
  })

  it('fails on error, and nothing after the end changes the state', () => {
    const failed = run([
      ['delta', { text: 'x' }],
      ['error', { message: 'The answer could not be produced' }],
      ['delta', { text: 'y' }],
      ['done', done],
    ])
    expect(failed).toMatchObject({ phase: 'failed', error: 'The answer could not be produced', text: 'x', answer: null })
  })

  it('ignores unknown events and data of the wrong shape', () => {
    const state = run([
      ['delta', 'not json'],
      ['delta', { text: 3 }],
      ['sources', { sources: 'none' }],
      ['ping', { text: 'x' }],
      ['done', { result: 42 }],
      ['delta', '[1,2]'],
    ])
    expect(state).toEqual(INITIAL_STREAM_STATE)
  })

  it('calls a stream that ended while writing cut off, and leaves a finished one as it is', () => {
    expect(endStream(run([['delta', { text: 'x' }]]))).toMatchObject({ phase: 'failed', error: STREAM_CUT_MESSAGE })
    const complete = run([['done', done]])
    expect(endStream(complete)).toBe(complete)
  })
})
