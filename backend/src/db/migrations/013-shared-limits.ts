/**
 * Limits every backend process on one database shares (ADR 310), so that N processes allow what one does:
 * - rate_limit_counts: the requests counted by the request limits (sign-in, registration, asking), one row per limit
 *   and client (an address or an account) for its current window, reset by the next request once the window ends;
 * - sign_in_failures: failed sign-ins by client address and account name (the lockout of LOGIN_MAX_FAILURES) and by
 *   name alone (the growing delay), in milliseconds since 1970 by the clock of the process that counted them.
 * Rows that no longer count are pruned now and then. Unlogged: losing them in a crash only starts the counts afresh.
 */
export const sql = /* sql */ `
CREATE UNLOGGED TABLE rate_limit_counts (
  key text PRIMARY KEY,
  requests integer NOT NULL,
  window_ends timestamptz NOT NULL
);
CREATE UNLOGGED TABLE sign_in_failures (
  key text PRIMARY KEY,
  failures integer NOT NULL,
  last_failed_ms bigint NOT NULL,
  refused_until_ms bigint
);
`
