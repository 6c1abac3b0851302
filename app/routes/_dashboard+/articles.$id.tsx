import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { LocalTime } from '~/components/local-time'
import { Markdown } from '~/components/markdown/markdown'
import * as layout from '~/styles/layout.css'
import { loadArticle } from '~/utils/article-route.server'
import { screenMeta } from '~/sponsors/meta'

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => screenMeta(matches, data?.article.title ?? 'Article')

export async function loader({ request, params }: LoaderFunctionArgs) {
  return json(await loadArticle(request, params))
}

export default function ArticleRoute() {
  const { article } = useLoaderData<typeof loader>()
  return (
    <article className={layout.card} aria-labelledby="article-title">
      <p>
        <Link to="/articles">← Articles</Link>
      </p>
      <h1 id="article-title">{article.title}</h1>
      <p className={layout.muted}>
        Article {article.id} · updated <LocalTime iso={article.timestamp} />
        {typeof article.metadata.source === 'string' && article.metadata.source !== article.title ? <> · source {article.metadata.source}</> : null}
      </p>
      <nav className={layout.toolbar} aria-label="Article actions">
        <Link to={`/articles/${article.id}/edit`}>Edit</Link>
        <Link to={`/articles/${article.id}/delete`}>Delete</Link>
      </nav>
      <Markdown source={article.content} headingLevel={2} />
    </article>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
