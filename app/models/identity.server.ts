import { CurrentUserAnswer, RefreshAnswer, SignInAnswer, SignOutAnswer } from '../../contracts/identity'
import { PasswordChanged, type PasswordChange } from '../../contracts/users'
import { callApi, type ApiSession } from './api.server'

/** Signs a local account in to the backend; throws ApiError (401 for any wrong detail, 429 while locked). */
export function signInLocal(username: string, password: string): Promise<SignInAnswer> {
  return callApi('/auth/login', { method: 'POST', body: { username, password }, schema: SignInAnswer })
}

/** A new backend token for a still-valid one (local accounts). */
export function refreshLocalToken(token: string): Promise<RefreshAnswer> {
  return callApi('/auth/refresh', { method: 'POST', session: { token }, schema: RefreshAnswer })
}

/** The backend's view of the bearer's user; for a provider's ID token this also creates the user on first sight. */
export function getCurrentUser(token: string): Promise<CurrentUserAnswer> {
  return callApi('/auth/me', { session: { token }, schema: CurrentUserAnswer })
}

/** Ends the backend's session of this token (for a provider's ID token: every one issued to the user so far). */
export function signOutAtBackend(token: string): Promise<SignOutAnswer> {
  return callApi('/auth/logout', { method: 'POST', session: { token }, schema: SignOutAnswer })
}

/** The signed-in user as the backend knows them (id, role, organisation and group ids), for the session's own screens. */
export function getOwnAccount(session: ApiSession): Promise<CurrentUserAnswer> {
  return callApi('/auth/me', { session, schema: CurrentUserAnswer })
}

/**
 * Changes the signed-in local account's own password. Every other session of the account ends; this one goes on.
 * Throws ApiError: 400 on `current_password` for a wrong current password or an account of the sign-in provider, 429
 * after too many attempts.
 */
export function changeOwnPassword(session: ApiSession, change: PasswordChange): Promise<PasswordChanged> {
  return callApi('/auth/password', { session, method: 'POST', body: change, schema: PasswordChanged })
}
