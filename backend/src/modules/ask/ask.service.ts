import type { AskAnswer, AskBody, Source } from '../../../../contracts/ask'
import type { Database } from '../../db/database'
import { NotFoundError } from '../../errors'
import type { Job, JobQueue } from '../../jobs/job-queue'
import { AGENT_JOB, type AgentsService } from '../agents/agents.service'
import type { KnowledgeService } from '../knowledge/knowledge.service'
import { queryLogsRepository as logs } from '../query-logs/query-logs.repository'
import type { CurrentUser } from '../identity/identity.types'
import { scopeOf } from '../query-logs/query-logs.service'
import type { SettingsService } from '../settings/settings.service'
import { screenQuestion } from '../firewall/semantic-firewall'
import { CitationList, composeCitedAnswer, NOT_FOUND_ANSWER, toCitableChunk } from './cited-answer'

export const ASK_JOB = 'ask'
export { NOT_FOUND_ANSWER }

interface AskPayload {
  logId: number
}

export interface ComposedAnswer {
  text: string
  isFound: boolean
  sources: Source[]
}

/** Answers questions from the knowledge base only, and logs every question; agent-mode commands go to the agents. */
export class AskService {
  constructor(
    private readonly db: Database,
    private readonly jobs: JobQueue,
    private readonly knowledge: KnowledgeService,
    private readonly settings: SettingsService,
    private readonly waitMs: number,
    private readonly agents: AgentsService,
  ) {
    jobs.register<AskPayload, { logId: number }>(ASK_JOB, (job) => this.runAsk(job))
  }

  /** Logs the question, answers it as a job, and waits briefly: a slow answer comes back as a task_id to poll. */
  async ask(user: CurrentUser, body: AskBody): Promise<AskAnswer> {
    if (body.mode === 'agent') return this.agents.start(user, body)
    const logId = await logs.insertPending(this.db, {
      command: body.command,
      timezone: body.timezone,
      mode: body.mode ?? 'expert',
      userId: user.id,
      organizationId: user.organizationId,
    })
    const job = await this.jobs.enqueue(ASK_JOB, { logId } satisfies AskPayload, { maxAttempts: 2 })
    await logs.setTask(this.db, logId, job.id)
    const current = (await this.jobs.waitFor(job.id, this.waitMs)) ?? job
    return this.toAnswer(current, logId)
  }

  /** The answer of an earlier ask by its task id. */
  async answerOf(user: CurrentUser, taskId: string): Promise<AskAnswer> {
    const job = await this.jobs.get(taskId)
    if (job?.kind === AGENT_JOB) return this.agents.answerOfJob(user, job)
    const logId = job?.kind === ASK_JOB ? (job.payload as AskPayload).logId : undefined
    // Someone else's task (outside the caller's organisation) is as unknown as a task that never existed.
    if (!job || !logId || !(await logs.find(this.db, logId, scopeOf(user)))) throw new NotFoundError(`No task ${taskId}`, { status: 'not found' })
    return this.toAnswer(job, logId)
  }

  /** The answer recorded in a log (GET /answer). */
  async answerOfLog(user: CurrentUser, logId: number): Promise<AskAnswer> {
    const log = await logs.find(this.db, logId, scopeOf(user))
    if (!log) throw new NotFoundError(`No query log ${logId}`, { status: 'not found' })
    if (log.mode === 'agent') return this.agents.answerOfLog(user, logId)
    const job = log.taskId ? await this.jobs.get(log.taskId) : undefined
    if (job) return this.toAnswer(job, logId)
    return {
      command: log.command,
      task_id: log.taskId,
      log_id: log.id,
      log_agent_ask_qa: null,
      source_list: log.sourceList,
      result: log.answer,
      found: log.status === 'answered',
      success: log.answer !== null,
      status: log.answer !== null ? 'finished' : 'failed',
      error: log.answer !== null ? null : 'The answer could not be produced',
    }
  }

  /** The answer to a question from the published articles: extractive, cited, never invented. */
  async compose(question: string): Promise<ComposedAnswer> {
    const settings = await this.settings.botSettings()
    const retrieved = (await this.knowledge.search(question, settings.num_sources_k)).filter((chunk) => chunk.score >= settings.score_threshold)
    if (retrieved.length === 0) return { text: NOT_FOUND_ANSWER, isFound: false, sources: [] }
    const citations = new CitationList()
    const composed = composeCitedAnswer(question, retrieved.map(toCitableChunk), this.knowledge.termWeight, citations)
    if (!composed) return { text: NOT_FOUND_ANSWER, isFound: false, sources: [] }
    return { text: composed.text, isFound: true, sources: citations.sources }
  }

  private async runAsk(job: Job<AskPayload, { logId: number }>) {
    const log = await logs.find(this.db, job.payload.logId)
    if (!log) throw new Error(`Query log ${job.payload.logId} is missing`)
    const started = performance.now()
    try {
      const { semantic_firewall: isFirewallOn } = await this.settings.botSettings()
      const screening = isFirewallOn ? screenQuestion(log.command) : null
      if (screening?.isBlocked) {
        await logs.complete(this.db, log.id, { answer: screening.refusal, sourceList: [], status: 'blocked', durationMs: Math.round(performance.now() - started) })
        return { logId: log.id }
      }
      const answer = await this.compose(log.command)
      await logs.complete(this.db, log.id, {
        answer: answer.text,
        sourceList: answer.sources,
        status: answer.isFound ? 'answered' : 'not_found',
        durationMs: Math.round(performance.now() - started),
      })
    } catch (error) {
      if (job.attempts >= job.maxAttempts) {
        await logs.complete(this.db, log.id, { answer: null, sourceList: [], status: 'failed', durationMs: Math.round(performance.now() - started) })
      }
      throw error
    }
    return { logId: log.id }
  }

  private async toAnswer(job: Job, logId: number): Promise<AskAnswer> {
    const log = await logs.find(this.db, logId)
    const base = { command: log?.command ?? null, task_id: job.id, log_id: logId, log_agent_ask_qa: null, source_list: [], result: null, found: false }
    if (job.status === 'queued' || job.status === 'running') return { ...base, success: false, status: job.status, error: null }
    if (job.status !== 'finished') {
      return { ...base, success: false, status: job.status, error: job.error ?? 'The answer could not be produced' }
    }
    if (!log) throw new NotFoundError(`Query log ${logId} is missing`, { status: 'not found' })
    return {
      ...base,
      success: true,
      status: 'finished',
      error: null,
      result: log.answer,
      source_list: log.sourceList,
      found: log.status === 'answered',
    }
  }
}
