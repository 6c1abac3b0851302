// The roles one installation of the product can start as (ROLE, docs/deployment.md), and what each needs from the
// operator: processes that run beside others must share their secrets, so none may be made up for one run.

export const ROLES = ['all', 'api', 'worker', 'web']

/** What a role must be given; `all` makes up what it lacks, since it runs every part in one place. */
const REQUIRED = {
  all: [],
  // Every API process signs and verifies the same tokens, answers the same web servers, and keeps one administrator.
  api: ['API_KEY', 'TOKEN_SECRET', 'ADMIN_PASSWORD'],
  // A worker shares the database with the API processes; its API_KEY is never used, so one is made up if missing.
  worker: ['DATABASE_URL'],
  // Every web server reads the sessions the others signed, and calls the API processes with their key.
  web: ['API_KEY', 'SESSION_SECRET', 'API_BASE_URL'],
}

/**
 * Reads ROLE (default `all`) and checks that the environment gives what the role needs.
 * Returns `{ ok: true, role }` or `{ ok: false, error }`.
 */
export function checkRole(env) {
  const role = String(env.ROLE || 'all').trim().toLowerCase()
  if (!ROLES.includes(role)) return { ok: false, error: `ROLE must be one of ${ROLES.join(', ')} (got "${env.ROLE}")` }
  const missing = REQUIRED[role].filter((name) => !env[name])
  // In demo mode the web server signs in as the administrator, with the password the API processes set.
  if (role === 'web' && !/^(true|1)$/i.test(String(env.AUTH_ENABLED ?? '')) && !env.ADMIN_PASSWORD) missing.push('ADMIN_PASSWORD')
  if (missing.length > 0) {
    return {
      ok: false,
      error: `ROLE=${role} runs beside other processes, which must all be given the same ${missing.join(', ')}: set ${missing.length > 1 ? 'them' : 'it'} (see docs/deployment.md)`,
    }
  }
  if (role === 'worker' && !/^postgres(ql)?:\/\//.test(env.DATABASE_URL)) {
    return { ok: false, error: 'ROLE=worker needs DATABASE_URL=postgres://…: the embedded database belongs to one process, which runs its jobs itself' }
  }
  return { ok: true, role }
}

/** The address /healthz answers on for a role, from this machine (the Docker health check). */
export function healthUrlOf(role, env) {
  if (role === 'api') return `http://127.0.0.1:${env.API_PORT || '3001'}/healthz`
  if (role === 'worker') return `http://127.0.0.1:${env.WORKER_HEALTH_PORT || env.API_PORT || '3001'}/healthz`
  return `http://127.0.0.1:${env.PORT || '3000'}/healthz`
}
