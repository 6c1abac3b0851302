import { Link } from '@remix-run/react'
import type { RelatedArticle } from '../../../contracts/ask'
import { readerHref } from '~/utils/reader'
import * as styles from './ask.css'

/**
 * The articles that may help with a question not answered (ADR 314): a heading and a list of links to the reader view,
 * which comes back to `back`. Nothing when there are none.
 */
export function RelatedArticles({
  articles,
  headingId,
  back,
  level = 3,
  note,
}: {
  articles: readonly RelatedArticle[] | undefined
  headingId: string
  back: string | null
  level?: 2 | 3
  note?: string
}) {
  if (!articles?.length) return null
  const Heading = level === 2 ? 'h2' : 'h3'
  return (
    <>
      <Heading id={headingId}>Articles that may help</Heading>
      {note ? <p>{note}</p> : null}
      <ul aria-labelledby={headingId} className={styles.relatedArticles}>
        {articles.map((article) => (
          <li key={article.article_id}>
            <Link to={readerHref(article.article_id, null, back)}>{article.title}</Link>
          </li>
        ))}
      </ul>
    </>
  )
}
