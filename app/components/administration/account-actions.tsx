import { Form, useActionData, useNavigation } from '@remix-run/react'
import type { User } from '../../../contracts/users'
import { OneTimeSecret } from '~/components/administration/one-time-secret'
import * as styles from '~/components/settings/settings.css'
import { Button } from '~/components/ui/button'
import { TextField } from '~/components/ui/text-field'
import { ONE_TIME_FIELD } from '~/utils/one-time-form'

/** The intents of the account forms on a user's page (handled by account-actions.server.ts). */
export const ACCOUNT_INTENTS = ['disable', 'enable', 'set-password', 'reset-link'] as const
export type AccountIntent = (typeof ACCOUNT_INTENTS)[number]

/** What an account form answers when it does not redirect: a refusal beside its form, or the reset link shown once. */
export interface AccountActionData {
  account: { intent: AccountIntent; error?: string; resetLink?: { url: string; expiresAt: string } }
}

/**
 * Disable or enable the account, and reset its password: set a new one here, or make a one-time link with which the
 * person sets one themselves. Each is a plain form of its own, so it works with scripts off. The link's form carries
 * `once`, the loader's one-time token (utils/one-time-form.server.ts), so that posting it again makes no other link.
 */
export function AccountActions({ user, once }: { user: Pick<User, 'id' | 'username' | 'enabled'>; once: string }) {
  const actionData = useActionData<AccountActionData | Record<string, unknown>>()
  const navigation = useNavigation()
  const answer = navigation.state === 'idle' && actionData && 'account' in actionData ? (actionData as AccountActionData).account : undefined
  const errorFor = (intent: AccountIntent) =>
    answer?.intent === intent && answer.error ? (
      <p role="alert" className={styles.formError}>
        {answer.error}
      </p>
    ) : null
  const isBusy = navigation.state === 'submitting'
  return (
    <>
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>Sign-in</legend>
        <p>
          {user.enabled ? 'This account is enabled.' : 'This account is disabled: it cannot sign in.'} Disabling ends every session of the account at once.
        </p>
        <Form method="post" aria-label={user.enabled ? `Disable ${user.username}` : `Enable ${user.username}`}>
          {errorFor(user.enabled ? 'disable' : 'enable')}
          <Button name="intent" value={user.enabled ? 'disable' : 'enable'} variant={user.enabled ? 'danger' : 'primary'} isDisabled={isBusy}>
            {user.enabled ? 'Disable user' : 'Enable user'}
          </Button>
        </Form>
      </fieldset>
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>Reset password</legend>
        <Form method="post" aria-label={`Set a new password for ${user.username}`}>
          {errorFor('set-password')}
          <TextField
            label="New password for the user"
            type="password"
            name="password"
            id="reset-password"
            isRequired
            maxLength={200}
            description="Their sessions end; tell them the new password yourself."
          />
          <Button name="intent" value="set-password" isDisabled={isBusy}>
            Set password
          </Button>
        </Form>
        <Form method="post" aria-label={`Create a password reset link for ${user.username}`}>
          {errorFor('reset-link')}
          <input type="hidden" name={ONE_TIME_FIELD} value={once} />
          <p>Or make a one-time link with which they choose a new password themselves. Their current password works until they use it.</p>
          <Button name="intent" value="reset-link" variant="secondary" isDisabled={isBusy}>
            Create reset link
          </Button>
        </Form>
        {answer?.intent === 'reset-link' && answer.resetLink ? (
          <OneTimeSecret
            id="reset-link"
            heading="Password reset link"
            label="Reset link"
            value={answer.resetLink.url}
            note={`Send it to ${user.username} yourself. It works once, until ${new Date(answer.resetLink.expiresAt).toUTCString()}.`}
          />
        ) : null}
      </fieldset>
    </>
  )
}
