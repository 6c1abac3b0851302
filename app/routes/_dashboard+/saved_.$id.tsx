import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useLocation } from '@remix-run/react'
import { RelatedArticles } from '~/components/ask/related-articles'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { LocalTime } from '~/components/local-time'
import * as styles from '~/components/logs/logs.css'
import { markdownExcerptShowing, toMarkdownDocument } from '~/components/markdown/markdown-document'
import { MarkdownView } from '~/components/markdown/markdown-view'
import { ApiError } from '~/models/api.server'
import { getQueryLog } from '~/models/query-logs.server'
import * as layout from '~/styles/layout.css'
import { screenMeta } from '~/sponsors/meta'
import { requireApiSession } from '~/utils/auth.server'
import { useDashboardRole } from '~/utils/dashboard-role'
import { backHere, readerHref } from '~/utils/reader'
import { mayOpen } from '~/utils/roles'

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => screenMeta(matches, data?.question ?? 'Saved answer')

const NOT_FOUND = 'This answer does not exist, or it is not yours to read.'

/**
 * A saved query's answer as its asker reads it (every role): the question, the answer and its sources, each leading
 * to the reader view at the quoted passage. The backend lets the asker, the editors of their organisation and the
 * administrators read a log, and answers anyone else 404. Only what the page shows is sent: no comments.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const logId = Number(params.id)
  if (!Number.isInteger(logId) || logId <= 0 || logId > 2_147_483_647) throw json({ message: NOT_FOUND }, { status: 404, statusText: 'Not Found' })
  const api = await requireApiSession(request)
  try {
    const log = await getQueryLog(api, logId)
    return json({
      logId: log.id,
      question: log.command,
      answer: log.answer ? toMarkdownDocument(log.answer) : null,
      status: log.status,
      timestamp: log.timestamp,
      sources: log.source_list.map((source) => ({
        title: source.metadata.title || source.metadata.source,
        articleId: source.metadata.doc_id,
        passageId: source.metadata.id,
        isDeleted: source.metadata.is_deleted,
        excerpt: source.page_content ? markdownExcerptShowing(source.page_content, 280, log.answer ?? undefined) : '',
      })),
      related: log.related_list ?? [],
    })
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw json({ message: NOT_FOUND }, { status: 404, statusText: 'Not Found' })
    throw error
  }
}

export default function SavedAnswerRoute() {
  const { logId, question, answer, status, timestamp, sources, related } = useLoaderData<typeof loader>()
  const role = useDashboardRole()
  const location = useLocation()
  const logPath = `/logs/${logId}`
  return (
    <section className={layout.card} aria-labelledby="saved-answer-heading">
      <p>
        <Link to="/saved">← Saved queries</Link>
      </p>
      <h1 id="saved-answer-heading">{question}</h1>
      <p className={layout.muted}>
        Asked <LocalTime iso={timestamp} />
        {mayOpen(role, logPath) ? (
          <>
            {' '}
            · <Link to={logPath}>Open the log</Link>
          </>
        ) : null}
      </p>
      <h2 id="saved-answer-answer">Answer</h2>
      {answer ? (
        <MarkdownView
          document={answer}
          headingLevel={3}
          citation={(n) => (sources[n - 1] ? { href: `#source-${n}`, title: sources[n - 1].title } : undefined)}
        />
      ) : (
        <p className={layout.muted}>No answer was given ({status}).</p>
      )}
      <h2 id="saved-answer-sources">Sources</h2>
      {sources.length ? (
        <ol aria-labelledby="saved-answer-sources">
          {sources.map((source, index) => (
            <li key={`${source.passageId}-${index}`} id={`source-${index + 1}`}>
              {source.isDeleted ? (
                <>
                  {source.title} <span className={styles.deleted}>(deleted)</span>
                </>
              ) : (
                <Link to={readerHref(source.articleId, source.passageId, backHere(location, `source-${index + 1}`))}>{source.title}</Link>
              )}
              {source.excerpt ? <p className={styles.excerpt}>{source.excerpt}</p> : null}
            </li>
          ))}
        </ol>
      ) : (
        <p className={layout.muted}>No sources.</p>
      )}
      <RelatedArticles articles={related} headingId="saved-answer-related" back={backHere(location, 'saved-answer-related')} level={2} />
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
