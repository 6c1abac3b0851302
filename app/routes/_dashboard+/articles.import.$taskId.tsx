import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import * as table from '~/components/data-table/data-table.css'
import { TableScroll } from '~/components/data-table/table-scroll'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { filesForScreen } from '~/components/import/file-results'
import { DraftLinks, FileResult, PageNote, PageResult } from '~/components/import/import-results'
import { PollAgain } from '~/components/poll'
import { Button } from '~/components/ui/button'
import { ApiError } from '~/models/api.server'
import { getIngestProgress, stopCrawl } from '~/models/ingest.server'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { redirectWithToast } from '~/utils/session.server'
import { isTaskId } from '~/utils/task-id'
import { screenMeta } from '~/sponsors/meta'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Import progress')

export async function loader({ request, params }: LoaderFunctionArgs) {
  const api = await requireApiSession(request)
  if (!isTaskId(params.taskId)) throw new Response('There is no import with this id.', { status: 404, statusText: 'Not Found' })
  try {
    const progress = await getIngestProgress(api, params.taskId)
    return json({ progress: { ...progress, files: filesForScreen(progress) } })
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new Response('There is no import with this id.', { status: 404, statusText: 'Not Found' })
    throw error
  }
}

/** Stop crawl: the crawl ends before its next page; a crawl that ended meanwhile is said so, on this same page. */
export async function action({ request, params }: ActionFunctionArgs) {
  const api = await requireApiSession(request)
  if (!isTaskId(params.taskId)) throw new Response('There is no import with this id.', { status: 404, statusText: 'Not Found' })
  const here = `/articles/import/${params.taskId}`
  try {
    await stopCrawl(api, params.taskId)
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new Response('There is no import with this id.', { status: 404, statusText: 'Not Found' })
    if (error instanceof ApiError && error.status === 409) return redirectWithToast(request, here, { summary: 'Not stopped', severity: 'error', message: error.message })
    throw error
  }
  return redirectWithToast(request, here, { summary: 'All Ok', message: 'Crawl stopped' })
}

export default function ImportProgressRoute() {
  const { progress } = useLoaderData<typeof loader>()
  const navigation = useNavigation()
  const isRunning = progress.status === 'queued' || progress.status === 'running'
  const heading = progress.kind === 'upload' ? 'Upload' : `Crawl of ${progress.start_url}`
  return (
    <section className={layout.card} aria-labelledby="progress-heading">
      <p>
        <Link to="/articles/import">← Import</Link>
      </p>
      <h1 id="progress-heading">{heading}</h1>
      <progress aria-label="Import progress" value={progress.progress} max={Math.max(progress.total, 1)} style={{ width: '100%' }} />
      <p role="status">{progress.message}</p>
      {isRunning ? <PollAgain seconds={1} /> : null}
      <div className={layout.toolbar}>
        {isRunning && progress.kind === 'crawl' ? (
          <Form method="post" aria-label="Stop the crawl">
            <Button variant="secondary" isDisabled={navigation.state === 'submitting'}>
              Stop crawl
            </Button>
          </Form>
        ) : null}
        <Link to="/articles/drafts">Review drafts</Link>
        <Link to="/articles/import">Import more</Link>
      </div>

      {progress.kind === 'upload' ? (
        <TableScroll label="Files">
          <table aria-label="Files" className={table.fitsPhone}>
            <thead>
              <tr>
                <th>File</th>
                <th>Result</th>
                <th>Drafts</th>
                <th>Original</th>
              </tr>
            </thead>
            <tbody>
              {progress.files.map((file) => (
                <tr key={file.s3_key}>
                  <td className={table.longValue}>{file.file_name}</td>
                  <td>
                    <FileResult file={file} />
                  </td>
                  <td>
                    <DraftLinks ids={file.draft_ids} />
                  </td>
                  <td>
                    <a href={`/articles/import/original?${new URLSearchParams({ s3_key: file.s3_key })}`}>
                      Download
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : (
        <TableScroll label="Pages">
          <table aria-label="Pages" className={table.fitsPhone}>
            <thead>
              <tr>
                <th>Address</th>
                <th>Depth</th>
                <th>Result</th>
                <th>Note</th>
              </tr>
            </thead>
            <tbody>
              {progress.pages.map((page) => (
                <tr key={page.url}>
                  <td className={table.longValue}>{page.url}</td>
                  <td>{page.depth}</td>
                  <td>
                    <PageResult page={page} />
                  </td>
                  <td>
                    <PageNote page={page} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
