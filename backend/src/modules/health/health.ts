import { z } from 'zod'
import type { Database } from '../../db/database'
import type { JobQueue } from '../../jobs/job-queue'
import type { KnowledgeService } from '../knowledge/knowledge.service'

export const Health = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  /** Whether this process claims jobs, and how many it is running. */
  worker: z.object({ enabled: z.boolean(), running_jobs: z.number().int() }),
  /**
   * This process's in-memory index: processes that applied the same changes report the same checksum (an
   * order-independent digest of the chunk ids they hold), so agreement between replicas can be checked.
   */
  index: z.object({
    chunks: z.number().int(),
    checksum: z.string(),
    seq: z.number().int(),
    /** How the index was loaded at start (ADR 145): from the snapshot file, or rebuilt from the chunks and why. */
    load: z.object({ source: z.enum(['snapshot', 'rebuild']), reason: z.string().optional(), milliseconds: z.number() }).optional(),
    /** The newest snapshot known to be in the file, with what writing it cost when this process wrote it; null: none. */
    snapshot: z
      .object({ seq: z.number().int(), writtenAt: z.string().optional(), milliseconds: z.number().optional(), bytes: z.number().int().optional() })
      .nullable(),
  }),
})
export type Health = z.infer<typeof Health>

export interface HealthSources {
  db: Database
  knowledge: KnowledgeService
  jobs: JobQueue
}

/** Answers once the database does; reports the index as it is now, without syncing it first. */
export async function healthReport({ db, knowledge, jobs }: HealthSources): Promise<Health> {
  await db.query('SELECT 1')
  return {
    status: 'ok',
    database: db.kind,
    worker: { enabled: jobs.isWorking, running_jobs: jobs.runningCount },
    index: { ...knowledge.status(), load: knowledge.loadReport, snapshot: knowledge.snapshotReport ?? null },
  }
}
