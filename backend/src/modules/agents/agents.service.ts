import type { AgentVariant, CancelAnswer } from '../../../../contracts/agents'
import type { AskAnswer, AskBody } from '../../../../contracts/ask'
import type { AgentSettings } from '../../../../contracts/settings'
import { createInitialState, type AgentCheckpoint, type AgentState } from '../../agents/agent-state'
import { KeywordRetriever, type Retriever } from '../../answering/retriever'
import { createReasoning } from '../../agents/reasoning'
import { createBuiltInTools } from '../../agents/tools/built-in-tools'
import { ToolRegistry } from '../../agents/tools/agent-tool'
import { agentOf, allowedToolsOf, firstStepOf } from '../../agents/workflow-definition'
import { effectiveMaxIteration, runWorkflow, traceEntry, type StepContext } from '../../agents/workflow-runtime'
import { WORKFLOW_HANDLERS } from '../../agents/workflow-steps'
import type { Database } from '../../db/database'
import { ConflictError, InvalidInputError, NotFoundError } from '../../errors'
import type { Job, JobContext, JobQueue } from '../../jobs/job-queue'
import type { CurrentUser } from '../identity/identity.types'
import type { KnowledgeService } from '../knowledge/knowledge.service'
import { queryLogsRepository as logs } from '../query-logs/query-logs.repository'
import { scopeOf } from '../query-logs/query-logs.service'
import type { SettingsService } from '../settings/settings.service'
import { screenPassage, screenQuestion } from '../firewall/semantic-firewall'
import type { LlmProvider } from '../../llm/provider'
import { templatesRepository } from '../templates/templates.repository'
import { agentsRepository as repository, type AgentRunRecord, type RunOutcomeRecord } from './agents.repository'

export const AGENT_JOB = 'agent'

/** What a queued run needs besides its query log; the template is copied so editing it mid-run changes nothing. */
interface AgentRunPayload {
  logId: number
  variant: AgentVariant
  /** `instructions` is missing from runs queued before it was copied. */
  template: { id: number; name: string; instructions?: string; sections: { title: string; instructions: string }[] } | null
}

type AgentJob = Job<AgentRunPayload, AgentCheckpoint | null>

/** A run interrupted by a shutdown: the job queue puts it back, and the next attempt resumes from its checkpoint. */
class RunInterruptedError extends Error {}

const sumDurations = (state: Pick<AgentState, 'steps'>) => state.steps.reduce((sum, entry) => sum + entry.duration_ms, 0)

/** How a finished workflow is logged: answered, not found, or failed when every tool it needed failed. */
function outcomeOf(state: AgentState): RunOutcomeRecord {
  const isFound = state.source_list.length > 0 || state.evidence.some((item) => item.statement !== null)
  return {
    answer: state.current_answer,
    sourceList: state.source_list,
    status: state.error ? 'failed' : isFound ? 'answered' : 'not_found',
    steps: state.steps,
    sections: state.variant === 'government' ? state.sections.map((section) => ({ title: section.title, answer: section.answer ?? '', source_numbers: section.sourceNumbers })) : null,
    error: state.error,
    durationMs: sumDurations(state),
  }
}

/** A run's status as the API reports it: the query log decides once the run has ended, the job before. */
function statusOf(run: AgentRunRecord, job: Job | undefined): AskAnswer['status'] {
  if (run.isCancelled) return 'cancelled'
  if (run.status === 'answered' || run.status === 'not_found' || run.status === 'blocked') return 'finished'
  if (run.status !== 'pending') return 'failed'
  if (job?.status === 'queued' || job?.status === 'running' || job?.status === 'cancelled') return job.status
  return 'failed'
}

/**
 * The general and government agents: each run is a persisted job that walks the workflow graph, checkpointing
 * after every step, so a restart resumes it (or, out of attempts, ends it as failed). Every run is logged.
 */
export class AgentsService {
  /** The tools runs can call; Agent settings choose among them. A deployment (or a test) may register more. */
  readonly tools: ToolRegistry
  private readonly running = new Map<string, AbortController>()
  private readonly now: () => Date
  /** The language model the agents plan and write with; without one, the deterministic planner and composer. */
  private readonly llm: LlmProvider | undefined

  constructor(
    private readonly db: Database,
    private readonly jobs: JobQueue,
    private readonly knowledge: KnowledgeService,
    private readonly settings: SettingsService,
    options: { now?: () => Date; retriever?: Retriever; llm?: LlmProvider } = {},
  ) {
    this.now = options.now ?? (() => new Date())
    this.llm = options.llm
    this.tools = new ToolRegistry(
      createBuiltInTools({ retriever: options.retriever ?? new KeywordRetriever(knowledge), findArticle: (title, limit) => repository.findArticleByTitle(db, title, limit) }),
    )
    jobs.register<AgentRunPayload, AgentCheckpoint | null>(AGENT_JOB, (job, context) => this.runAgent(job, context))
  }

  /** Logs the command and queues its run; the answer comes from POST /ask_qa_answer with the task_id. */
  async start(user: CurrentUser, body: AskBody): Promise<AskAnswer> {
    const variant = body.variant ?? 'general'
    // A variant runs only as the agent named after it; without that agent it is off (ADR 280).
    if (!agentOf(variant, await this.settings.agentSettings())) {
      throw new ConflictError(`The ${variant} agent is off: Agent settings have no agent named “${variant}”. An administrator adds one in Settings, Agent.`, 'variant')
    }
    const template = variant === 'government' ? await this.templateFor(body.template_id) : null
    const logId = await this.db.transaction(async (tx) => {
      const id = await logs.insertPending(tx, { command: body.command, timezone: body.timezone, mode: 'agent', userId: user.id, organizationId: user.organizationId })
      await repository.setRunOf(tx, id, { variant, templateId: template?.id ?? null })
      return id
    })
    const job = await this.jobs.enqueue(AGENT_JOB, { logId, variant, template } satisfies AgentRunPayload, { maxAttempts: 3 })
    await logs.setTask(this.db, logId, job.id)
    return this.toAnswer(await this.requireRun(user, logId, job.id), job)
  }

  /** The state, and once finished the answer, of a run by its job. */
  async answerOfJob(user: CurrentUser, job: Job): Promise<AskAnswer> {
    const run = await this.requireRun(user, (job.payload as AgentRunPayload).logId, job.id)
    return this.toAnswer(run, job)
  }

  /** The answer of a run by its query log (GET /answer). */
  async answerOfLog(user: CurrentUser, logId: number): Promise<AskAnswer> {
    const run = await repository.findRun(this.db, logId, scopeOf(user))
    if (!run) throw new NotFoundError(`No query log ${logId}`, { status: 'not found' })
    return this.toAnswer(run, run.taskId ? await this.jobs.get(run.taskId) : undefined)
  }

  /** Cancels a run that has not ended; it stops at its next step (or at once, inside a tool that listens). */
  async cancel(user: CurrentUser, taskId: string): Promise<CancelAnswer> {
    const job = await this.jobs.get(taskId)
    const logId = (job?.payload as { logId?: number } | undefined)?.logId
    const run = job && logId ? await repository.findRun(this.db, logId, scopeOf(user)) : undefined
    // An expert answer given at once (ADR 140) has a task id but no job: its log tells it from an unknown task.
    if (!job && (await logs.findByTask(this.db, taskId, scopeOf(user)))) {
      throw new ConflictError('Only agent runs can be cancelled; an expert answer is produced in one step')
    }
    if (!job || !run) throw new NotFoundError(`No task ${taskId}`, { status: 'not found' })
    if (job.kind !== AGENT_JOB) throw new ConflictError('Only agent runs can be cancelled; an expert answer is produced in one step')
    const checkpoint = job.result as AgentCheckpoint | null
    const steps = checkpoint?.state?.steps ?? []
    // Whoever ends the log first, the run or this cancellation, decides how the run ended.
    if (!(await repository.cancelRun(this.db, run.id, steps, sumDurations({ steps })))) {
      throw new ConflictError(`The run has already ended (${statusOf(run, job)})`)
    }
    await this.jobs.cancel(taskId)
    this.running.get(taskId)?.abort('cancelled')
    return { success: true, message: 'Run cancelled', task_id: taskId, log_id: run.id, status: 'cancelled' }
  }

  /** Interrupts the runs of this process (the backend is stopping); each resumes from its checkpoint later. */
  stop(): void {
    for (const controller of this.running.values()) controller.abort('shutdown')
  }

  private async templateFor(templateId: number | undefined): Promise<AgentRunPayload['template']> {
    if (templateId === undefined) throw new InvalidInputError('template_id', 'template_id is required for the government agent')
    const template = await templatesRepository.findTemplate(this.db, templateId)
    if (!template) throw new InvalidInputError('template_id', `Unknown template ${templateId}: template_id must name one of GET /admin/get_templates`)
    if (template.sections.length === 0) throw new InvalidInputError('template_id', `Template ${templateId} (“${template.name}”) has no sections to fill`)
    return { id: template.id, name: template.name, instructions: template.instructions, sections: template.sections.map(({ title, instructions }) => ({ title, instructions })) }
  }

  private async requireRun(user: CurrentUser, logId: number, taskId: string): Promise<AgentRunRecord> {
    // Another organisation's run is as unknown as one that never existed.
    const run = await repository.findRun(this.db, logId, scopeOf(user))
    if (!run) throw new NotFoundError(`No task ${taskId}`, { status: 'not found' })
    return run
  }

  private async toAnswer(run: AgentRunRecord, job: Job | undefined): Promise<AskAnswer> {
    const status = statusOf(run, job)
    const hasEnded = run.status !== 'pending'
    const { toggle_debug: isDebugOn } = await this.settings.agentSettings()
    // While it runs, the trace so far is in the job's checkpoint; once ended, in the log.
    const checkpoint = job?.result as AgentCheckpoint | null | undefined
    const steps = isDebugOn ? (run.steps ?? checkpoint?.state?.steps ?? []) : null
    return {
      command: run.command,
      task_id: run.taskId ?? job?.id ?? null,
      log_id: run.id,
      status,
      success: status === 'finished',
      error: status === 'failed' || status === 'cancelled' ? (run.error ?? job?.error ?? 'The run failed') : null,
      result: hasEnded ? run.answer : null,
      answer: hasEnded ? run.answer : null,
      source_list: run.sourceList,
      found: run.status === 'answered',
      log_agent_ask_qa: steps,
      variant: run.variant ?? 'general',
      template_id: run.templateId,
      sections: run.sections,
      model: hasEnded ? run.model : null,
      note: hasEnded ? run.note : null,
    }
  }

  private async runAgent(job: AgentJob, progress: JobContext<AgentCheckpoint | null>): Promise<AgentCheckpoint | null> {
    const run = await repository.findRun(this.db, job.payload.logId)
    if (!run) throw new Error(`Query log ${job.payload.logId} is missing`)
    // Cancelled while it waited in the queue: nothing is left to do.
    if (run.status !== 'pending') return job.result
    const [agentSettings, botSettings] = await Promise.all([this.settings.agentSettings(), this.settings.botSettings()])
    if (agentSettings.semantic_firewall) {
      const screening = screenQuestion(run.command)
      if (screening.isBlocked) {
        const screened = traceEntry({ now: this.now }, { step: 'firewall', iteration: 0, status: 'blocked', detail: `Refused by the semantic firewall (${screening.reason})` }, performance.now())
        await repository.completeRun(this.db, run.id, { answer: screening.refusal, sourceList: [], status: 'blocked', steps: [screened], sections: null, error: null, durationMs: 0 })
        return null
      }
    }
    const controller = new AbortController()
    this.running.set(job.id, controller)
    const context: StepContext = {
      signal: controller.signal,
      reasoning: createReasoning(agentSettings, {
        weightOf: this.knowledge.termWeight,
        correctTerm: this.knowledge.correctTerm,
        llm: this.llm,
        promptSettings: botSettings,
        variant: job.payload.variant,
        screenPassage,
        signal: controller.signal,
      }),
      tools: this.tools,
      allowedTools: allowedToolsOf(job.payload.variant, agentSettings),
      weightOf: this.knowledge.termWeight,
      timezone: run.timezone?.trim() || 'UTC',
      sourcesPerSearch: botSettings.num_sources_k,
      scoreThreshold: botSettings.score_threshold,
      templateName: job.payload.template?.name ?? null,
      templateInstructions: job.payload.template?.instructions ?? null,
      now: this.now,
    }
    try {
      const outcome = await runWorkflow(this.checkpointOf(job, run, agentSettings), WORKFLOW_HANDLERS, context, {
        isCancelled: async () => (await this.jobs.get(job.id))?.status === 'cancelled',
        save: (checkpoint) => progress.reportProgress(checkpoint.state.iteration, checkpoint.state.max_iteration, checkpoint),
      })
      if (outcome.kind === 'stopped' && outcome.reason === 'shutdown') {
        throw new RunInterruptedError('The backend stopped during the run; it resumes from its last finished step')
      }
      // A cancelled run was logged by cancel(); a finished one is logged here, unless a cancellation came first.
      // How the answer was written (a model's failure is said with it, as on the Ask screen); a run resumed after a
      // restart reports what its last attempt did.
      if (outcome.kind === 'ended') await repository.completeRun(this.db, run.id, { ...outcomeOf(outcome.state), ...context.reasoning.writingReport?.() })
      return { state: outcome.state, next: 'end' }
    } catch (error) {
      if (job.attempts >= job.maxAttempts) {
        const reason = error instanceof Error ? error.message : String(error)
        const steps = (await this.jobs.get(job.id))?.result as AgentCheckpoint | null
        await repository.completeRun(this.db, run.id, {
          answer: null,
          sourceList: [],
          status: 'failed',
          steps: steps?.state?.steps ?? [],
          sections: null,
          error: `The run failed after ${job.attempts} attempts: ${reason}`,
          durationMs: steps?.state ? sumDurations(steps.state) : 0,
        })
      }
      throw error
    } finally {
      this.running.delete(job.id)
    }
  }

  /** Where a run starts: its saved checkpoint when an earlier attempt got somewhere, else the first step. */
  private checkpointOf(job: AgentJob, run: AgentRunRecord, settings: AgentSettings): AgentCheckpoint {
    const saved = job.result
    if (saved?.state && saved.next) {
      const resumed = traceEntry(
        { now: this.now },
        { step: saved.next, iteration: saved.state.iteration, status: 'resumed', detail: `Resumed at ${saved.next} after an interruption (attempt ${job.attempts} of ${job.maxAttempts})` },
        performance.now(),
      )
      return { next: saved.next, state: { ...saved.state, steps: [...saved.state.steps, resumed] } }
    }
    const state = createInitialState({ command: run.command, variant: job.payload.variant, maxIteration: effectiveMaxIteration(settings.max_iteration), template: job.payload.template })
    return { state, next: firstStepOf(job.payload.variant) }
  }
}
