import { parseWithZod } from '@conform-to/zod/v4'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { z } from 'zod'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { LocalTime } from '~/components/local-time'
import { ActionButtonForm, CommentForm } from '~/components/logs/comment-form'
import { LogForms, type LogFormData } from '~/components/logs/log-forms'
import * as styles from '~/components/logs/logs.css'
import { errorToast, respondWithToast } from '~/components/logs/respond.server'
import { markdownExcerpt, withoutCitationMarkers } from '~/components/markdown/markdown-document'
import { ApiError } from '~/models/api.server'
import { deleteFavorite, listFavorites, saveFavorite } from '~/models/query-logs.server'
import * as layout from '~/styles/layout.css'
import { requireApiSession } from '~/utils/auth.server'
import { useDashboardRole } from '~/utils/dashboard-role'
import { mayOpen } from '~/utils/roles'
import { screenMeta } from '~/sponsors/meta'
import { assertOnlyTypedFieldsFailed, readFormData, unknownIntent } from '~/utils/form.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Saved queries')

const LOAD_FAILED = 'Cannot get saved queries'
const SAVE_FAILED = 'Cannot save or update query'

export async function loader({ request }: LoaderFunctionArgs) {
  const api = await requireApiSession(request)
  try {
    return json({ favorites: await listFavorites(api), loadError: null })
  } catch (error) {
    // The page itself is the place to say so: a redirect here would loop. Shown as the same alert a toast would be.
    if (error instanceof ApiError) return json({ favorites: [] as Awaited<ReturnType<typeof listFavorites>>, loadError: LOAD_FAILED })
    throw error
  }
}

const Id = z.coerce.number().int().positive().max(2_147_483_647)
export const SavedForms = {
  // The comment of a saved query may be empty; its log id goes with it (add_query_favorite with an id updates).
  'favorite-update': z.object({ intent: z.literal('favorite-update'), id: Id, log_id: Id, comment: LogForms.favorite.shape.comment }),
  'favorite-delete': z.object({ intent: z.literal('favorite-delete'), id: Id }),
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readFormData(request)
  const intent = String(formData.get('intent'))
  if (!Object.hasOwn(SavedForms, intent)) throw unknownIntent(intent)
  const formId = String(formData.get('form_id') ?? intent)
  const isEnhanced = formData.get('enhanced') === '1'
  const submission = parseWithZod(formData, { schema: SavedForms[intent as keyof typeof SavedForms] })
  if (submission.status !== 'success') {
    assertOnlyTypedFieldsFailed(submission.error, ['comment'])
    return json<LogFormData>({ formId, result: submission.reply() }, { status: 400 })
  }
  const value = submission.value
  const respond = (toast: Parameters<typeof respondWithToast>[1]['toast']) => respondWithToast<LogFormData>(request, { isEnhanced, redirectTo: '/saved', data: { formId }, toast })
  const api = await requireApiSession(request)
  try {
    if (value.intent === 'favorite-update') {
      const saved = await saveFavorite(api, { id: value.id, logId: value.log_id, comment: value.comment })
      return respond({ summary: 'All Ok', message: saved.message })
    }
    await deleteFavorite(api, value.id)
    return respond({ summary: 'All Ok', message: 'Saved query deleted' })
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    // SEED.md §8: a failed save or update says 'Cannot save or update query'; a failed delete gives the server's reason.
    return respond(errorToast(value.intent === 'favorite-update' ? SAVE_FAILED : error.message || SAVE_FAILED))
  }
}

/** The user's saved queries (favourites): open the answer (or, for editors, the log), change the note, delete. */
export default function SavedRoute() {
  const { favorites, loadError } = useLoaderData<typeof loader>()
  // Editors and administrators open the log itself (comments, drafts); everyone else the answer as its asker reads it.
  const role = useDashboardRole()
  const openPath = (logId: number) => (mayOpen(role, `/logs/${logId}`) ? `/logs/${logId}` : `/saved/${logId}`)
  // Deleting a saved query here (with scripts) takes away the button that had the focus: the focus goes on to the saved
  // query that takes its place, or to the heading when none is left, not back to the top of the document.
  const shownIds = useRef(favorites.map((favorite) => favorite.id))
  useEffect(() => {
    const before = shownIds.current
    const now = favorites.map((favorite) => favorite.id)
    shownIds.current = now
    if (document.activeElement && document.activeElement !== document.body) return
    const removedAt = before.findIndex((id) => !now.includes(id))
    if (removedAt === -1) return
    const next = favorites[Math.min(removedAt, favorites.length - 1)]
    document.getElementById(next ? `saved-${next.id}-question` : 'saved-heading')?.focus()
  }, [favorites])
  return (
    <section className={layout.card} aria-labelledby="saved-heading">
      <h1 id="saved-heading" tabIndex={-1}>
        Saved queries
      </h1>
      {loadError ? (
        <div className={layout.notice} data-severity="error" role="alert">
          <strong>Something went wrong</strong>
          <div>{loadError}</div>
        </div>
      ) : null}
      {favorites.length === 0 && !loadError ? (
        <p className={layout.muted}>
          No saved queries yet. Save one from an answer on <Link to="/ask">Ask</Link>
          {mayOpen(role, '/logs') ? (
            <>
              {' '}
              or from a log in <Link to="/logs">Logs</Link>
            </>
          ) : null}
          .
        </p>
      ) : null}
      {favorites.length ? (
        <ul aria-label="Saved queries" className={styles.commentList}>
          {favorites.map((favorite) => (
            <li key={favorite.id} className={styles.commentItem} aria-labelledby={`saved-${favorite.id}-question`}>
              <h2 id={`saved-${favorite.id}-question`} tabIndex={-1} style={{ fontSize: '1.1rem', margin: '0 0 0.25rem' }}>
                {favorite.command}
              </h2>
              <p className={layout.muted} style={{ margin: 0 }}>
                Saved <LocalTime iso={favorite.timestamp} /> ·{' '}
                <Link to={openPath(favorite.log_id)} aria-label={`Open ${favorite.command}`}>
                  Open
                </Link>
              </p>
              {/* No sources are listed here: the answer's "[n]" markers would point at nothing (the answer's page links them). */}
              {favorite.answer ? <p className={styles.excerpt}>{markdownExcerpt(withoutCitationMarkers(favorite.answer), 400)}</p> : null}
              <div className={styles.inlineForms}>
                <div className={styles.growForm}>
                  <CommentForm
                    key={`${favorite.id}-${favorite.comment}`}
                    formId={`saved-${favorite.id}`}
                    intent="favorite-update"
                    schema={SavedForms['favorite-update']}
                    label={`Note for ${favorite.command}`}
                    fieldLabel="Note"
                    submitLabel="Update note"
                    defaultValue={favorite.comment}
                    isRequired={false}
                    hidden={{ id: favorite.id, log_id: favorite.log_id }}
                  />
                </div>
                <ActionButtonForm
                  formId={`saved-${favorite.id}-delete`}
                  intent="favorite-delete"
                  label={`Delete saved query ${favorite.command}`}
                  buttonLabel="Delete saved query"
                  hidden={{ id: favorite.id }}
                />
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
