import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import type { ArticleSourceKind, ReadArticle } from '../../../contracts/articles'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { LocalTime } from '~/components/local-time'
import { toMarkdownDocument, type MarkdownDocument } from '~/components/markdown/markdown-document'
import { MarkdownView } from '~/components/markdown/markdown-view'
import * as styles from '~/components/reader/reader.css'
import { ApiError } from '~/models/api.server'
import { readArticle } from '~/models/articles.server'
import * as layout from '~/styles/layout.css'
import { screenMeta } from '~/sponsors/meta'
import { articleIdOf } from '~/utils/article-route.server'
import { requireApiSession } from '~/utils/auth.server'
import { useDashboardRole } from '~/utils/dashboard-role'
import { readerBackLink, splitAtPassage } from '~/utils/reader'
import { mayOpen } from '~/utils/roles'

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => screenMeta(matches, data?.article.title ?? 'Article')

/** What the reader says about the passage the link named: shown marked, not (or no longer) in the article, or none asked. */
type PassageState = 'shown' | 'missing' | 'none'

/**
 * The reader view: a published article as every signed-in role reads it, with the passage an answer quoted (the
 * `passage` parameter, a source's chunk id) marked and reached by #passage. The Markdown is parsed here, so the
 * page ships no parser.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = articleIdOf(params)
  const api = await requireApiSession(request)
  let article: ReadArticle
  try {
    article = await readArticle(api, id)
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw json({ message: 'This article does not exist or was deleted.' }, { status: 404, statusText: 'Not Found' })
    throw error
  }
  const { parts, state } = partsOf(article, new URL(request.url).searchParams.get('passage'))
  return json({
    article: { id: article.id, title: article.title, timestamp: article.timestamp, source: article.source },
    parts,
    passageState: state,
    back: backLinkOf(request),
  })
}

function partsOf(article: ReadArticle, passageParam: string | null) {
  const whole = { before: toMarkdownDocument(article.content), passage: null, after: null }
  if (passageParam === null) return { parts: whole, state: 'none' as PassageState }
  const passageId = /^\d{1,10}$/.test(passageParam) ? Number(passageParam) : null
  const passage = article.passages.find((candidate) => candidate.id === passageId)
  const split = passage ? splitAtPassage(article.content, passage.start, passage.end) : null
  if (!split) return { parts: whole, state: 'missing' as PassageState }
  return {
    parts: {
      before: split.before.trim() ? toMarkdownDocument(split.before) : null,
      passage: toMarkdownDocument(split.passage),
      after: split.after.trim() ? toMarkdownDocument(split.after) : null,
    },
    state: 'shown' as PassageState,
  }
}

/**
 * The way back to the screen the reader came from: the `back` its link carries (Ask's thread), else the Referer (which
 * the app's Referrer-Policy sends only within the site), with its query, so an answer on Ask shows again; Ask when
 * neither is known. Only a path of a known screen is kept (`readerBackLink`): the link never leaves the site.
 */
function backLinkOf(request: Request): { to: string; label: string } {
  const asked = readerBackLink(new URL(request.url).searchParams.get('back'))
  if (asked) return asked
  const referer = request.headers.get('referer')
  let from: URL | null = null
  try {
    from = referer ? new URL(referer) : null
  } catch {
    from = null
  }
  return (from && readerBackLink(`${from.pathname}${from.search}`)) ?? { to: '/ask', label: 'Back to Ask' }
}

const SOURCE_KINDS: Record<ArticleSourceKind, string> = {
  article: 'Article of the knowledge base',
  web_page: 'Web page',
  file: 'File',
  video: 'Video',
}

export default function ReadRoute() {
  const { article, parts, passageState, back } = useLoaderData<typeof loader>()
  const role = useDashboardRole()
  const editorPath = `/articles/${article.id}`
  const view = (document: MarkdownDocument, className?: string) => <MarkdownView document={document} headingLevel={2} className={className} />
  return (
    <article className={layout.card} aria-labelledby="reader-title">
      <p>
        <Link to={back.to}>← {back.label}</Link>
      </p>
      <h1 id="reader-title">{article.title}</h1>
      <p className={`${layout.muted} ${styles.sourceLine}`}>
        <SourceLine source={article.source} /> · updated <LocalTime iso={article.timestamp} />
      </p>
      {passageState === 'missing' ? (
        <div className={layout.notice} data-severity="warn" role="note">
          The quoted passage is not in this article as it reads now: it may have been edited since the answer. The whole article is shown.
        </div>
      ) : null}
      {passageState === 'shown' || mayOpen(role, editorPath) ? (
        <nav className={layout.toolbar} aria-label="Reading">
          {passageState === 'shown' ? <a href="#passage">Go to the quoted passage</a> : null}
          {mayOpen(role, editorPath) ? <Link to={editorPath}>Open in the editor</Link> : null}
        </nav>
      ) : null}
      {parts.before ? view(parts.before, parts.passage ? styles.part : undefined) : null}
      {parts.passage ? (
        <mark id="passage" className={styles.passage}>
          <span className="visually-hidden">Quoted passage: </span>
          {view(parts.passage)}
          <span className="visually-hidden"> (end of the quoted passage)</span>
        </mark>
      ) : null}
      {parts.after ? view(parts.after) : null}
    </article>
  )
}

/** What kind of source the article is, with its address or file name. */
function SourceLine({ source }: { source: ReadArticle['source'] }) {
  const kind = SOURCE_KINDS[source.kind]
  if (source.url) {
    return (
      <>
        {kind}:{' '}
        <a href={source.url} rel="noopener noreferrer nofollow">
          {source.name ?? source.url}
        </a>
      </>
    )
  }
  return <>{source.name ? `${kind}: ${source.name}` : kind}</>
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
