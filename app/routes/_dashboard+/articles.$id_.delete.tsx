import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { LocalTime } from '~/components/local-time'
import { Button } from '~/components/ui/button'
import { ApiError } from '~/models/api.server'
import { deleteArticle } from '~/models/articles.server'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { articleIdOf, loadArticle } from '~/utils/article-route.server'
import { redirectWithToast } from '~/utils/session.server'
import { screenMeta } from '~/sponsors/meta'

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => screenMeta(matches, `Delete ${data?.article.title ?? 'article'}`)


export async function loader({ request, params }: LoaderFunctionArgs) {
  return json(await loadArticle(request, params))
}

export async function action({ request, params }: ActionFunctionArgs) {
  const id = articleIdOf(params)
  try {
    await deleteArticle(await requireApiSession(request), id)
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      return redirectWithToast(request, '/articles', { summary: 'Something went wrong', severity: 'error', message: error.message })
    }
    throw error
  }
  return redirectWithToast(request, '/articles', { summary: 'All Ok', message: 'Article deleted' })
}

/** The confirmation step of deleting an article: a page of its own, so it works the same with scripts off. */
export default function DeleteArticleRoute() {
  const { article } = useLoaderData<typeof loader>()
  const navigation = useNavigation()
  return (
    <section className={layout.card} aria-labelledby="delete-article-heading">
      <p>
        <Link to={`/articles/${article.id}`}>← {article.title}</Link>
      </p>
      <h1 id="delete-article-heading">Delete “{article.title}”?</h1>
      <p>
        Article {article.id}, updated <LocalTime iso={article.timestamp} />. It stops being used in answers at once, and its sources in the
        query logs are marked deleted. This cannot be undone.
      </p>
      <Form method="post" className={layout.toolbar} aria-labelledby="delete-article-heading">
        <Button variant="danger" isDisabled={navigation.state === 'submitting'}>
          Delete article
        </Button>
        <Link to={`/articles/${article.id}`}>Cancel</Link>
      </Form>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
