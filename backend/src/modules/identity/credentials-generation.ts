import { whenCommitted, type Queryable } from '../../db/database'

let generation = 0

/**
 * Says that who a session belongs to, or what its account may do, may have changed: a session ended, an account
 * disabled or moved, a password or a group's role changed. Every such write calls it, before and again after its
 * commit, so that this process's kept sessions (IdentityService) are read afresh from then on.
 */
export function credentialsChanged(db: Queryable): void {
  generation += 1
  whenCommitted(db, () => {
    generation += 1
  })
}

/** Changes so far: a session kept under an older generation is no longer trusted. */
export function credentialsGeneration(): number {
  return generation
}
