import { describe, expect, it } from 'vitest'
import { FORM_LIMIT_BYTES, FORM_LIMIT_FIELDS, FORM_LIMIT_PARTS, readFormData } from './form.server'

const post = (body: BodyInit | null, contentType?: string) =>
  new Request('http://127.0.0.1/ask', { method: 'POST', body, headers: contentType ? { 'content-type': contentType } : {} })

/** The status and message of what readFormData threw (a response), or of a form it read. */
async function outcome(request: Request, ...rest: Parameters<typeof readFormData> extends [Request, ...infer R] ? R : never) {
  try {
    const form = await readFormData(request, ...rest)
    return { status: 200, form }
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown
    return { status: thrown.status, message: ((await thrown.json()) as { message: string }).message }
  }
}

const multipart = (boundary: string, parts: string) => post(parts.replaceAll('\n', '\r\n'), `multipart/form-data; boundary=${boundary}`)

describe('readFormData', () => {
  it('reads url-encoded forms and well-formed multipart forms', async () => {
    const encoded = await outcome(post('question=what%20is+this&intent=ask', 'application/x-www-form-urlencoded;charset=UTF-8'))
    expect(encoded.form?.get('question')).toBe('what is this')
    const parts = await outcome(multipart('b0', '--b0\nContent-Disposition: form-data; name="title"\n\nHello\n--b0--\n'))
    expect(parts.form?.get('title')).toBe('Hello')
  })

  it('counts a line break as one character, as the browser does: CR LF (and a lone CR) is read as LF, files untouched', async () => {
    const lines = Array.from({ length: 40 }, (_, index) => `line ${index}`)
    const encoded = await outcome(post(new URLSearchParams({ question: lines.join('\r\n'), other: 'a\rb' }).toString(), 'application/x-www-form-urlencoded'))
    expect(encoded.form?.get('question')).toBe(lines.join('\n'))
    expect(encoded.form?.get('other')).toBe('a\nb')
    const parts = await outcome(
      multipart(
        'b1',
        '--b1\nContent-Disposition: form-data; name="content"\n\nOne\nTwo\n--b1\nContent-Disposition: form-data; name="file"; filename="a.txt"\nContent-Type: text/plain\n\nx\ny\n--b1--\n',
      ),
    )
    expect(parts.form?.get('content')).toBe('One\nTwo')
    const file = parts.form?.get('file') as File
    expect(file.name).toBe('a.txt')
    expect(await file.text()).toBe('x\r\ny')
  })

  it('answers 415 naming the type for bodies that are no form', async () => {
    expect(await outcome(post('{"question":"x"}', 'application/json'))).toMatchObject({ status: 415, message: expect.stringContaining('not application/json') })
    expect(await outcome(post('question=x', 'text/plain'))).toMatchObject({ status: 415, message: expect.stringContaining('text/plain') })
    expect(await outcome(post('question=x'.replace(/./g, 'x')))).toMatchObject({ status: 415 })
    expect(await outcome(post(null))).toMatchObject({ status: 415, message: expect.stringContaining('without a content type') })
  })

  it('answers 400 for broken multipart bodies: no boundary, an empty one, garbage, no final boundary', async () => {
    expect(await outcome(post('--x\r\n', 'multipart/form-data'))).toMatchObject({ status: 400, message: expect.stringContaining('boundary') })
    expect(await outcome(post('--x\r\n', 'multipart/form-data; boundary='))).toMatchObject({ status: 400 })
    expect(await outcome(post('garbage without parts', 'multipart/form-data; boundary=b1'))).toMatchObject({ status: 400, message: expect.stringContaining('could not be read') })
    expect(await outcome(multipart('b2', '--b2\nContent-Disposition: form-data; name="title"\n\nHello'))).toMatchObject({ status: 400 })
    expect(await outcome(multipart('b3', '--b3\nno headers here\n--b3--\n'))).toMatchObject({ status: 400 })
  })

  it('answers 413 for forms over the limit, declared or streamed', async () => {
    const huge = `question=${'a'.repeat(FORM_LIMIT_BYTES)}`
    expect(await outcome(post(huge, 'application/x-www-form-urlencoded'))).toMatchObject({ status: 413, message: expect.stringContaining('MB') })
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let index = 0; index < 9; index++) controller.enqueue(new Uint8Array(1024 * 1024).fill(97))
        controller.close()
      },
    })
    const streamed = new Request('http://127.0.0.1/ask', { method: 'POST', body: stream, headers: { 'content-type': 'application/x-www-form-urlencoded' }, duplex: 'half' } as RequestInit)
    expect(await outcome(streamed)).toMatchObject({ status: 413 })
    const bigPart = multipart('b4', `--b4\nContent-Disposition: form-data; name="content"\n\n${'a'.repeat(FORM_LIMIT_BYTES + 10)}\n--b4--\n`)
    expect(await outcome(bigPart)).toMatchObject({ status: 413 })
  })

  it('answers 413 for forms of more fields than the limit, however small, and reads a form at the limit', async () => {
    const fields = (count: number) => Array.from({ length: count }, (_, index) => `a${index}=1`).join('&')
    expect(await outcome(post(fields(700_000), 'application/x-www-form-urlencoded'))).toMatchObject({ status: 413, message: expect.stringContaining('fields') })
    const atLimit = await outcome(post(fields(FORM_LIMIT_FIELDS), 'application/x-www-form-urlencoded'))
    expect([...(atLimit.form?.keys() ?? [])]).toHaveLength(FORM_LIMIT_FIELDS)
    const parts = (count: number) => Array.from({ length: count }, (_, index) => `--b9\nContent-Disposition: form-data; name="a${index}"\n\n1\n`).join('') + '--b9--\n'
    expect(await outcome(multipart('b9', parts(FORM_LIMIT_PARTS + 1)))).toMatchObject({ status: 413, message: expect.stringContaining('fields') })
    expect([...((await outcome(multipart('b9', parts(FORM_LIMIT_PARTS)))).form?.keys() ?? [])]).toHaveLength(FORM_LIMIT_PARTS)
  })

  it("passes the upload handler's own refusals on, and still answers 400 for a broken body", async () => {
    class Refused extends Error {}
    const refuse = async () => {
      throw new Refused('too many files')
    }
    await expect(readFormData(multipart('b5', '--b5\nContent-Disposition: form-data; name="files"; filename="a.txt"\n\nx\n--b5--\n'), refuse)).rejects.toBeInstanceOf(Refused)
    expect(await outcome(post('garbage', 'multipart/form-data; boundary=b6'), refuse)).toMatchObject({ status: 400 })
  })

  it('answers 400 when the body breaks off inside a part the upload handler is reading', async () => {
    const { unstable_createMemoryUploadHandler } = await import('@remix-run/node')
    const memory = unstable_createMemoryUploadHandler({ maxPartSize: 1024 })
    const brokenOff = multipart('b7', '--b7\nContent-Disposition: form-data; name="files"; filename="a.txt"\n\nhalf a file')
    expect(await outcome(brokenOff, memory)).toMatchObject({ status: 400, message: expect.stringContaining('malformed') })
  })

  it('reads file names as the browser sent them: with ; and = in them, a quote it wrote as %22, any other % as it is', async () => {
    const names = ['notes; draft.md', 'ratio a=b.md', 'the %22best%22 tulips.md', '100% sure; a=1 %3B.md', 'Ünïcødé 🚲.md']
    const body = names.map((name) => `--b8\nContent-Disposition: form-data; name="files"; filename="${name}"\nContent-Type: text/markdown\n\n# ${name}\n`).join('') + '--b8--\n'
    const parts = await outcome(multipart('b8', body))
    expect(parts.status).toBe(200)
    const files = parts.form?.getAll('files') as File[]
    expect(files.map((file) => file.name)).toEqual(['notes; draft.md', 'ratio a=b.md', 'the "best" tulips.md', '100% sure; a=1 %3B.md', 'Ünïcødé 🚲.md'])
    expect(await files[1].text()).toBe('# ratio a=b.md')
    // The same body arriving a few bytes at a time, delimiters and headers cut anywhere.
    const bytes = new TextEncoder().encode(body.replaceAll('\n', '\r\n'))
    const trickle = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 3) controller.enqueue(bytes.slice(at, at + 3))
        controller.close()
      },
    })
    const request = new Request('http://127.0.0.1/ask', { method: 'POST', body: trickle, headers: { 'content-type': 'multipart/form-data; boundary=b8' }, duplex: 'half' } as RequestInit)
    const trickled = (await outcome(request)).form?.getAll('files') as File[]
    expect(trickled.map((file) => file.name)).toEqual(files.map((file) => file.name))
    expect(await Promise.all(trickled.map((file) => file.text()))).toEqual(await Promise.all(files.map((file) => file.text())))
  })

  it('answers 400 for a field numbered past the fields a form may have, before any list of that length is made', async () => {
    const refused = await outcome(post(`username=a&sections%5B${FORM_LIMIT_FIELDS}%5D.title=x`, 'application/x-www-form-urlencoded'))
    expect(refused).toMatchObject({ status: 400, message: expect.stringContaining('sections[5000].title') })
    const far = await outcome(multipart('b10', '--b10\nContent-Disposition: form-data; name="x[100000000]"\n\n1\n--b10--\n'))
    expect(far).toMatchObject({ status: 400 })
    const last = await outcome(post(`sections%5B${FORM_LIMIT_FIELDS - 1}%5D.title=x&tools%5B0%5D.name=y`, 'application/x-www-form-urlencoded'))
    expect(last.status).toBe(200)
  })
})
