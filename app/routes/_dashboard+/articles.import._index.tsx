import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import {
  json,
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type UploadHandler,
} from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { countAsterisks, MAX_PATTERN_ASTERISKS, TOO_MANY_ASTERISKS, type IngestLimits, type KnowledgeMatch } from '../../../contracts/ingest'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { KnowledgeLink } from '~/components/import/import-results'
import { toConformErrors } from '~/components/settings/form-errors'
import * as controls from '~/components/ui/controls.css'
import { Button } from '~/components/ui/button'
import { fieldProps, TextField } from '~/components/ui/text-field'
import { ApiError } from '~/models/api.server'
import { getIngestLimits, importYoutubeVideo, startCrawl, uploadFiles } from '~/models/ingest.server'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { readFormData, unknownIntent } from '~/utils/form.server'
import { formatMegabytes } from '~/utils/byte-size'
import { fieldErrorsInFormWords, inFormWords } from '~/utils/form-words'
import { redirectWithToast } from '~/utils/session.server'
import { screenMeta } from '~/sponsors/meta'

// Checked by shape, not instanceof: the server's upload handler and the browser each have their own File class.
const FileLike = z.custom<File>((value) => typeof value === 'object' && value !== null && typeof (value as File).arrayBuffer === 'function' && typeof (value as File).name === 'string', 'Choose a file')

const UploadForm = z.object({
  intent: z.literal('upload'),
  files: z.array(FileLike, { error: 'Choose at least one file' }).min(1, 'Choose at least one file'),
  csv_title_column: z.string().trim().max(200).optional(),
  csv_content_column: z.string().trim().max(200).optional(),
})

/**
 * The crawl form, within the backend's configured limits (GET /admin/ingest_limits): a depth and a number of pages
 * over them are both said at once, beside their fields, before the backend is asked.
 */
function crawlFormWithin(limits: Pick<IngestLimits, 'max_crawl_depth' | 'max_crawl_pages'>) {
  return z.object({
    intent: z.literal('crawl'),
    start_url: z
      .string({ error: 'Please enter the address to start from' })
      .trim()
      .refine((value) => /^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value), 'Please enter an http or https address'),
    max_depth: z
      .number({ error: 'Please enter a depth' })
      .int('A whole number, please')
      .min(0, 'At least 0')
      .max(limits.max_crawl_depth, `Depth is at most ${limits.max_crawl_depth} links`),
    max_pages: z
      .number({ error: 'Please enter a number of pages' })
      .int('A whole number, please')
      .min(1, 'At least 1')
      .max(limits.max_crawl_pages, `At most ${limits.max_crawl_pages} pages`),
    exclude_patterns: z
      .string()
      .max(10_000)
      .optional()
      .refine((value) => (value ?? '').split('\n').every((line) => countAsterisks(line) <= MAX_PATTERN_ASTERISKS), TOO_MANY_ASTERISKS),
  })
}

/** The crawl form's labels, for the backend's messages that name its fields. */
const CRAWL_LABELS = { start_url: 'Start address', max_depth: 'Depth', max_pages: 'Maximum pages', exclude_patterns: 'Exclusion patterns' } as const

const YoutubeForm = z.object({
  intent: z.literal('youtube'),
  url: z.string({ error: 'Please enter a YouTube video address' }).trim().min(1, 'Please enter a YouTube video address').max(2000),
})

/** The YouTube form's label, for the backend's messages that name its field. */
const YOUTUBE_LABELS = { url: 'Video address' } as const

type Intent = 'upload' | 'crawl' | 'youtube'
/** alreadyThere: the draft or article a video's transcript is the same as, when its import made no draft (ADR 311). */
type ActionData = { intent: Intent; result: SubmissionResult<string[]>; alreadyThere?: KnowledgeMatch }

const ACCEPTED_FILES = '.pdf,.docx,.html,.htm,.md,.markdown,.txt,.csv,application/pdf,text/html,text/markdown,text/plain,text/csv'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Import')

export async function loader({ request }: LoaderFunctionArgs) {
  return json({ limits: await getIngestLimits(await requireApiSession(request)) })
}

/** Refusal of an upload before it reaches the backend (too many or too large files), naming the file. */
class UploadRefusedError extends Error {}

/** Remix's memory upload handler, with the backend's limits and errors that name the file. */
function createUploadHandler(limits: IngestLimits): UploadHandler {
  const memory = unstable_createMemoryUploadHandler({ maxPartSize: limits.max_upload_bytes })
  let fileCount = 0
  return async (part) => {
    // An empty file input still sends a part, with an empty name and no bytes: it is no file.
    if (part.filename === '') {
      for await (const _chunk of part.data) void _chunk
      return undefined
    }
    if (part.filename && ++fileCount > limits.max_upload_files) throw new UploadRefusedError(`At most ${limits.max_upload_files} files can be uploaded at once`)
    try {
      return await memory(part)
    } catch (error) {
      if (error instanceof MaxPartSizeExceededError) {
        throw new UploadRefusedError(`${part.filename || part.name} is larger than the limit of ${formatMegabytes(limits.max_upload_bytes)}`)
      }
      throw error
    }
  }
}

const refuse = (intent: Intent, field: string, message: string) =>
  json<ActionData>({ intent, result: { status: 'error', error: { [field]: [message] } } }, { status: 400 })

export async function action({ request }: ActionFunctionArgs) {
  const api = await requireApiSession(request)
  let formData: FormData
  const isMultipart = (request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')
  try {
    formData = await readFormData(request, isMultipart ? createUploadHandler(await getIngestLimits(api)) : undefined)
  } catch (error) {
    if (error instanceof UploadRefusedError) return refuse('upload', 'files', error.message)
    throw error
  }

  const intent = formData.get('intent')
  if (intent === 'upload') {
    const submission = parseWithZod(formData, { schema: UploadForm })
    if (submission.status !== 'success') return json<ActionData>({ intent, result: submission.reply({ hideFields: ['files'] }) }, { status: 400 })
    try {
      const { csv_title_column: title, csv_content_column: content } = submission.value
      const progress = await uploadFiles(api, submission.value.files, { title, content })
      const message = progress.status === 'finished' ? progress.message : 'Files received: reading them now'
      return redirectWithToast(request, `/articles/import/${progress.task_id}`, { summary: progress.success ? 'All Ok' : 'Something went wrong', severity: progress.success ? 'success' : 'warn', message })
    } catch (error) {
      // The refusal goes back with what was typed (the CSV columns); only the files cannot be sent back.
      if (error instanceof ApiError && error.status < 500) {
        return json<ActionData>({ intent, result: submission.reply({ fieldErrors: { files: [error.message] }, hideFields: ['files'] }) }, { status: 400 })
      }
      throw error
    }
  }
  if (intent === 'crawl') {
    const submission = parseWithZod(formData, { schema: crawlFormWithin(await getIngestLimits(api)) })
    if (submission.status !== 'success') return json<ActionData>({ intent, result: submission.reply() }, { status: 400 })
    const { start_url, max_depth, max_pages, exclude_patterns } = submission.value
    try {
      const patterns = (exclude_patterns ?? '').split('\n').map((line) => line.trim()).filter(Boolean)
      const progress = await startCrawl(api, { start_url, max_depth, max_pages, exclude_patterns: patterns })
      return redirectWithToast(request, `/articles/import/${progress.task_id}`, { summary: 'All Ok', message: 'Crawl started' })
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        // A refused pattern (exclude_patterns.2) is said beside the one field that holds them all.
        const fieldErrors = fieldErrorsInFormWords(toConformErrors(error.fieldErrors(), (field) => field.replace(/^exclude_patterns\.\d+$/, 'exclude_patterns')), CRAWL_LABELS)
        return json<ActionData>({ intent, result: submission.reply(Object.keys(fieldErrors).length ? { fieldErrors } : { formErrors: [error.message] }) }, { status: 400 })
      }
      throw error
    }
  }
  if (intent === 'youtube') {
    const submission = parseWithZod(formData, { schema: YoutubeForm })
    if (submission.status !== 'success') return json<ActionData>({ intent, result: submission.reply() }, { status: 400 })
    try {
      const imported = await importYoutubeVideo(api, submission.value.url)
      // No draft to review: said here, beside the address, with a link to the draft or article it is the same as.
      if (imported.duplicate_of) return json<ActionData>({ intent, result: submission.reply(), alreadyThere: imported.duplicate_of })
      return redirectWithToast(request, '/articles/drafts', { summary: 'All Ok', message: `Transcript of “${imported.title}” saved as a draft` })
    } catch (error) {
      // A video without a transcript (404) or an unreachable transcript service (502) is said beside the field.
      if (error instanceof ApiError && error.status !== 401 && error.status !== 403) {
        return json<ActionData>({ intent, result: submission.reply({ fieldErrors: { url: [inFormWords(error.message, YOUTUBE_LABELS)] } }) }, { status: 400 })
      }
      throw error
    }
  }
  throw unknownIntent(intent)
}

export default function ImportRoute() {
  const { limits } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const lastResultFor = (intent: Intent) => (actionData && 'intent' in actionData && actionData.intent === intent ? actionData.result : undefined)
  const videoAlreadyThere = actionData && 'alreadyThere' in actionData ? actionData.alreadyThere : undefined
  const busyWith = navigation.state === 'submitting' ? navigation.formData?.get('intent') : undefined
  const formOptions = { shouldValidate: 'onBlur', shouldRevalidate: 'onInput' } as const
  const CrawlForm = crawlFormWithin(limits)

  const [uploadForm, uploadFields] = useForm({
    id: 'upload',
    lastResult: lastResultFor('upload'),
    constraint: getZodConstraint(UploadForm),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UploadForm }),
    ...formOptions,
  })
  const [crawlForm, crawlFields] = useForm({
    id: 'crawl',
    lastResult: lastResultFor('crawl'),
    constraint: getZodConstraint(CrawlForm),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CrawlForm }),
    defaultValue: { max_depth: '2', max_pages: String(Math.min(50, limits.max_crawl_pages)) },
    ...formOptions,
  })
  const [youtubeForm, youtubeFields] = useForm({
    id: 'youtube',
    lastResult: lastResultFor('youtube'),
    constraint: getZodConstraint(YoutubeForm),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: YoutubeForm }),
    ...formOptions,
  })
  const filesErrorId = `${uploadFields.files.id}-error`
  const csvTitleColumn = fieldProps(uploadFields.csv_title_column)
  const csvContentColumn = fieldProps(uploadFields.csv_content_column)

  return (
    <>
      <section className={layout.card} aria-labelledby="import-heading">
        <p>
          <Link to="/articles">← Articles</Link>
        </p>
        <h1 id="import-heading">Import</h1>
        <p className={layout.muted}>
          Everything imported becomes a draft. Review the drafts, then publish them to use them in answers. <Link to="/articles/drafts">Drafts</Link>
        </p>
      </section>

      <section className={layout.card} aria-labelledby="upload-heading">
        <h2 id="upload-heading">Upload files</h2>
        <p className={layout.muted}>
          PDF, Word (DOCX), HTML, Markdown, plain text or CSV (one draft per row): up to {limits.max_upload_files} files of at most{' '}
          {formatMegabytes(limits.max_upload_bytes)} each. The type is read from the content, not the file name.
        </p>
        <Form method="post" encType="multipart/form-data" {...getFormProps(uploadForm)}>
          <input type="hidden" name="intent" value="upload" />
          <div className={controls.field}>
            <label htmlFor={uploadFields.files.id} className={controls.label}>
              Files
            </label>
            <input
              id={uploadFields.files.id}
              name={uploadFields.files.name}
              type="file"
              multiple
              required
              accept={ACCEPTED_FILES}
              aria-invalid={uploadFields.files.errors ? true : undefined}
              aria-describedby={uploadFields.files.errors ? filesErrorId : undefined}
            />
            {uploadFields.files.errors ? (
              <p id={filesErrorId} className={controls.error} role="alert">
                {uploadFields.files.errors.join(' ')}
              </p>
            ) : null}
          </div>
          {/* Open again when a refused upload comes back with columns typed in it. */}
          <details open={Boolean(csvTitleColumn.defaultValue || csvContentColumn.defaultValue) || undefined}>
            <summary>CSV columns</summary>
            <p className={layout.muted}>By default the title and content columns are found by their headers (title, name, question… and content, body, text, answer…).</p>
            <TextField label="Title column" {...csvTitleColumn} />
            <TextField label="Content column" {...csvContentColumn} />
          </details>
          <Button isDisabled={busyWith === 'upload'}>{busyWith === 'upload' ? 'Uploading…' : 'Upload'}</Button>
        </Form>
      </section>

      <section className={layout.card} aria-labelledby="crawl-heading">
        <h2 id="crawl-heading">Crawl a web site</h2>
        <p className={layout.muted}>
          Pages of the same site only, breadth first, honouring robots.txt; each page’s main text becomes a draft. At most {limits.max_crawl_pages} pages and{' '}
          {limits.max_crawl_depth} links deep.{limits.allow_private_fetch ? '' : ' Private and internal addresses are refused.'}
        </p>
        <Form method="post" {...getFormProps(crawlForm)}>
          <input type="hidden" name="intent" value="crawl" />
          {crawlForm.errors ? (
            <p className={controls.error} role="alert">
              {crawlForm.errors.join(' ')}
            </p>
          ) : null}
          <TextField label={CRAWL_LABELS.start_url} {...fieldProps(crawlFields.start_url)} type="url" isRequired />
          <TextField
            label={CRAWL_LABELS.max_depth}
            {...fieldProps(crawlFields.max_depth)}
            description="Links to follow from the start page (0: the start page only)."
            type="number"
            isRequired
          />
          <TextField
            label={CRAWL_LABELS.max_pages}
            {...fieldProps(crawlFields.max_pages)}
            type="number"
            isRequired
          />
          <TextField
            label={CRAWL_LABELS.exclude_patterns}
            {...fieldProps(crawlFields.exclude_patterns)}
            description="One per line. * matches anything; without *, a pattern matches anywhere in the path (/blog/tag excludes /blog/tag/…)."
            isMultiline
            rows={3}
          />
          <Button isDisabled={busyWith === 'crawl'}>Start crawl</Button>
        </Form>
      </section>

      <section className={layout.card} aria-labelledby="youtube-heading">
        <h2 id="youtube-heading">YouTube transcript</h2>
        <p className={layout.muted}>The video’s transcript becomes a draft, with the video’s address as its source.</p>
        <Form method="post" {...getFormProps(youtubeForm)}>
          <input type="hidden" name="intent" value="youtube" />
          <TextField label={YOUTUBE_LABELS.url} {...fieldProps(youtubeFields.url)} type="url" isRequired />
          <Button isDisabled={busyWith === 'youtube'}>{busyWith === 'youtube' ? 'Importing…' : 'Import transcript'}</Button>
        </Form>
        {videoAlreadyThere && busyWith !== 'youtube' ? (
          <p role="status">
            Already in the knowledge base: <KnowledgeLink match={videoAlreadyThere} />. No draft was made.
          </p>
        ) : null}
      </section>
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
