import { json, MaxPartSizeExceededError, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData, type UploadHandler } from '@remix-run/node'

/** The largest form without files the web server reads: the backend takes 2 MB bodies, percent-encoding adds more. */
export const FORM_LIMIT_BYTES = 8 * 1024 * 1024
/**
 * Most fields a form may have. No form of the product comes near it (a page of drafts selected at once is a hundred);
 * a body of hundreds of thousands of tiny fields, well under the byte limit, held the web server for seconds.
 */
export const FORM_LIMIT_FIELDS = 5000
/** …and parts a multipart form may have (an upload's fields and files), each of which costs more to read. */
export const FORM_LIMIT_PARTS = 500

const FORM_TYPES = 'application/x-www-form-urlencoded or multipart/form-data'

/** A refusal of the request's form as the answer: Remix renders it with the route's error boundary (or as JSON data). */
function refusal(status: 400 | 413 | 415, message: string): Response {
  const statusText = { 400: 'Bad Request', 413: 'Content Too Large', 415: 'Unsupported Media Type' }[status]
  return json({ message }, { status, statusText })
}

/**
 * The form posted with this request, for every action: a body that is no form (JSON, plain text, no content type),
 * a broken multipart body or one too large is answered with 415, 400 or 413 and a reason (thrown as a response),
 * never a server error. Files go to `uploadHandler` when given (its own errors are passed on as they are); without
 * one, a file part counts against the same limit as any field.
 */
export async function readFormData(request: Request, uploadHandler?: UploadHandler): Promise<FormData> {
  const contentType = request.headers.get('content-type') ?? ''
  const mediaType = contentType.split(';')[0].trim().toLowerCase()
  if (mediaType === 'application/x-www-form-urlencoded') return withLineFeeds(withListIndexesInRange(await readUrlEncoded(request)))
  if (mediaType === 'multipart/form-data') return withLineFeeds(withListIndexesInRange(await readMultipart(request, contentType, uploadHandler)))
  throw refusal(415, `This address takes a form (${FORM_TYPES}), not ${mediaType ? mediaType : 'a body without a content type'}.`)
}

/**
 * The form, refused with 400 when a field's name numbers an item of a list (`sections[12].title`) at or past the
 * fields a form may have: conform's parse makes a list that long from one such name, so `x[100000000]=1`, posted to
 * any action, sign-in included, held the web server for a minute, and a template's `sections[999999]` drew a form
 * of a million sections.
 */
function withListIndexesInRange(form: FormData): FormData {
  for (const name of form.keys()) {
    for (const [, index] of name.matchAll(/\[(\d+)\]/g)) {
      if (index.length > 6 || Number(index) >= FORM_LIMIT_FIELDS) {
        const shown = name.length > 80 ? `${name.slice(0, 80)}…` : name
        throw refusal(400, `This form is not one this page sends: its field ${shown} is numbered past the limit of ${FORM_LIMIT_FIELDS} items.`)
      }
    }
  }
  return form
}

/**
 * The form's text with each line break as one character, as the browser counts it: a posted form sends a line break
 * of a text area as CR LF, so 3,999 characters over 40 lines arrived as 4,038 and a limit the field let through was
 * refused on the server. Files are left as they are.
 */
function withLineFeeds(form: FormData): FormData {
  let hasCarriageReturn = false
  for (const [, value] of form) if (typeof value === 'string' && value.includes('\r')) hasCarriageReturn = true
  if (!hasCarriageReturn) return form
  const normalized = new FormData()
  for (const [name, value] of form) {
    if (typeof value === 'string') normalized.append(name, value.replace(/\r\n?/g, '\n'))
    else normalized.append(name, value, value.name)
  }
  return normalized
}

async function readUrlEncoded(request: Request): Promise<FormData> {
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > FORM_LIMIT_BYTES) throw tooLarge()
  const chunks: Uint8Array[] = []
  let size = 0
  if (request.body) {
    const reader = request.body.getReader()
    for (;;) {
      let read: ReadableStreamReadResult<Uint8Array>
      try {
        read = await reader.read()
      } catch {
        throw refusal(400, 'The form could not be read: the request body ended unexpectedly.')
      }
      if (read.done) break
      size += read.value.byteLength
      if (size > FORM_LIMIT_BYTES) {
        await reader.cancel().catch(() => undefined)
        throw tooLarge()
      }
      chunks.push(read.value)
    }
  }
  const body = Buffer.concat(chunks)
  // Fields are counted by their separators before any is decoded.
  let fields = 1
  for (let at = body.indexOf(0x26); at !== -1; at = body.indexOf(0x26, at + 1)) if (++fields > FORM_LIMIT_FIELDS) throw tooManyFields()
  const form = new FormData()
  for (const [name, value] of new URLSearchParams(new TextDecoder().decode(body))) form.append(name, value)
  return form
}

async function readMultipart(request: Request, contentType: string, uploadHandler: UploadHandler | undefined): Promise<FormData> {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)
  if (!boundary || !(boundary[1] ?? boundary[2])) throw refusal(400, 'The form could not be read: multipart/form-data needs a boundary.')
  let handlerError: unknown
  let isBodyBroken = false
  const handler: UploadHandler = uploadHandler ?? unstable_createMemoryUploadHandler({ maxPartSize: FORM_LIMIT_BYTES })
  let parts = 0
  const watched: UploadHandler = async (part) => {
    if (++parts > FORM_LIMIT_PARTS) throw tooManyFields(FORM_LIMIT_PARTS)
    // A part's bytes are read by the handler: a body that breaks off shows up as the handler's error.
    const data = (async function* () {
      try {
        yield* part.data
      } catch (error) {
        isBodyBroken = true
        throw error
      }
    })()
    try {
      return await handler({ ...part, filename: part.filename === undefined ? undefined : fileNameAsSent(part.filename), data })
    } catch (error) {
      handlerError = error
      throw error
    }
  }
  // Remix's parser reads a body without a single part as an empty form: a body that never names its boundary is broken.
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`)
  let hasDelimiter = false
  let tail = Buffer.alloc(0)
  const watchedBody = request.body?.pipeThrough(fileNamesEscaped(delimiter)).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (!hasDelimiter) {
          const window = Buffer.concat([tail, chunk])
          hasDelimiter = window.includes(delimiter)
          tail = window.subarray(Math.max(0, window.length - delimiter.length + 1))
        }
        controller.enqueue(chunk)
      },
    }),
  )
  const watchedRequest = new Request(request.url, { method: request.method, headers: request.headers, body: watchedBody, duplex: 'half' } as RequestInit)
  try {
    const form = await unstable_parseMultipartFormData(watchedRequest, watched)
    if (!hasDelimiter) throw refusal(400, 'The form could not be read: the multipart/form-data body has no part with its boundary.')
    return form
  } catch (error) {
    if (error instanceof Response) throw error
    if (error instanceof MaxPartSizeExceededError && !uploadHandler) throw tooLarge()
    // A refusal of the caller's own upload handler (too many files, a file too large) is the caller's to answer.
    if (error === handlerError && uploadHandler && !isBodyBroken) throw error
    throw refusal(400, `The form could not be read: the multipart/form-data body is malformed (${describe(error)}).`)
  }
}

/** Longest header block of a part that is looked at for a file name; a longer one passes as it is. */
const PART_HEADERS_LIMIT = 16 * 1024

/**
 * Remix's multipart parser splits a part's Content-Disposition at every `;` and `=`, so a file named "notes; draft.md"
 * or "a=b.md" broke the whole form. Browsers send the name as `filename="…"`, the last parameter, with only `"`, CR and
 * LF escaped (as %22, %0D, %0A): in each part's headers the name's `%`, `;` and `=` are escaped here, and
 * `fileNameAsSent` reads them back. The parts' contents pass untouched.
 */
function fileNamesEscaped(delimiter: Buffer): TransformStream<Uint8Array, Uint8Array> {
  const headersEnd = Buffer.from('\r\n\r\n')
  let pending = Buffer.alloc(0)
  let isInHeaders = false
  const drain = (controller: TransformStreamDefaultController<Uint8Array>, isLast: boolean) => {
    for (;;) {
      if (isInHeaders) {
        const end = pending.indexOf(headersEnd)
        if (end === -1 && pending.length <= PART_HEADERS_LIMIT && !isLast) return
        const length = end === -1 ? Math.min(pending.length, PART_HEADERS_LIMIT) : end + headersEnd.length
        const headers = pending.subarray(0, length).toString('latin1')
        controller.enqueue(Buffer.from(end === -1 ? headers : escapeFileName(headers), 'latin1'))
        pending = pending.subarray(length)
        isInHeaders = false
        continue
      }
      const at = pending.indexOf(delimiter)
      if (at === -1) {
        // Keep what could be the start of a delimiter cut by the chunk's end.
        const keep = isLast ? 0 : Math.min(pending.length, delimiter.length - 1)
        if (pending.length > keep) controller.enqueue(pending.subarray(0, pending.length - keep))
        pending = pending.subarray(pending.length - keep)
        return
      }
      controller.enqueue(pending.subarray(0, at + delimiter.length))
      pending = pending.subarray(at + delimiter.length)
      isInHeaders = true
    }
  }
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : Buffer.from(chunk)
      drain(controller, false)
    },
    flush(controller) {
      drain(controller, true)
    },
  })
}

/** A part's header block with the characters of its file name that the parser would split at escaped. */
function escapeFileName(headers: string): string {
  return headers.replace(/^(content-disposition:[^\r\n]*?;\s*filename=")([^\r\n]*)("[ \t]*)$/im, (_line, head: string, name: string, tail: string) =>
    `${head}${name.replace(/[%;=]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)}${tail}`,
  )
}

/** A file name as the browser's user gave it: what `fileNamesEscaped` escaped, then the browser's %22 (a quote). */
function fileNameAsSent(name: string): string {
  const escapes: Record<string, string> = { '%25': '%', '%3B': ';', '%3D': '=' }
  return name.replace(/%(?:25|3B|3D)/gi, (escape) => escapes[escape.toUpperCase()] ?? escape).replace(/%22/g, '"')
}

/** The answer (to throw) for a form that does not say what to do in a way this action reads: 400 with the reason. */
export function badForm(message: string): Response {
  return refusal(400, message)
}

/**
 * For pages with many forms: errors on a field nobody types (an id, a hidden field) mean a form the page never sent,
 * whose reply no form on the page would show. That is thrown as 400 with the reasons; errors on `typedFields` only
 * go back beside their fields.
 */
export function assertOnlyTypedFieldsFailed(errors: Record<string, string[] | null> | null | undefined, typedFields: readonly string[]): void {
  const untyped = Object.entries(errors ?? {}).filter(([field, messages]) => messages?.length && !typedFields.includes(field))
  if (untyped.length === 0) return
  throw refusal(400, `This form is not one this page sends: ${untyped.map(([field, messages]) => `${field || 'form'}: ${messages!.join(' ')}`).join('; ')}.`)
}

/** The answer (to throw) for a form whose intent this action does not know: a forged or outdated form. */
export function unknownIntent(intent: FormDataEntryValue | null | undefined): Response {
  const named = typeof intent === 'string' && intent ? `“${intent.length > 60 ? `${intent.slice(0, 60)}…` : intent}”` : 'nothing'
  return refusal(400, `This form asks for ${named}, which this page does not do.`)
}

function tooManyFields(limit = FORM_LIMIT_FIELDS): Response {
  return refusal(413, `The form has more than the limit of ${limit} fields.`)
}

function tooLarge(): Response {
  return refusal(413, `The form is larger than the limit of ${FORM_LIMIT_BYTES / (1024 * 1024)} MB.`)
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.length > 200 ? `${message.slice(0, 200)}…` : message || 'unreadable'
}
