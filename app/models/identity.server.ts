import { CurrentUserAnswer, RefreshAnswer, SignInAnswer, SignOutAnswer } from '../../contracts/identity'
import { callApi } from './api.server'

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
