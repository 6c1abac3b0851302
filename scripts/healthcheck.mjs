// The container's health check: GET /healthz of the part this container runs (ROLE, scripts/roles.mjs).
import { checkRole, healthUrlOf } from './roles.mjs'

const checked = checkRole(process.env)
const url = healthUrlOf(checked.ok ? checked.role : 'all', process.env)
try {
  const response = await fetch(url, { signal: AbortSignal.timeout(4000) })
  process.exit(response.ok ? 0 : 1)
} catch {
  process.exit(1)
}
