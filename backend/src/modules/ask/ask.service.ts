import { randomUUID } from 'node:crypto'
import type { AskAnswer, AskBody, AskModels, AskThread, AskThreads, Source } from '../../../../contracts/ask'
import { USE_DEFAULT_MODEL, type BotSettings } from '../../../../contracts/settings'
import { QuestionAnswerer, type AnsweredQuestion, type AnswerEvent } from '../../answering/answerer'
import { NOT_FOUND_ANSWER } from '../../answering/not-found'
import { MAX_HISTORY_TURNS, type PromptTurn } from '../../answering/prompt'
import { KeywordRetriever, type Retriever } from '../../answering/retriever'
import type { Database } from '../../db/database'
import { InvalidInputError, NotFoundError, UpstreamError } from '../../errors'
import type { LlmProvider } from '../../llm/provider'
import { JobLostError, JobStoppedError, type HeldJob, type Job, type JobContext, type JobQueue } from '../../jobs/job-queue'
import { AGENT_JOB, type AgentsService } from '../agents/agents.service'
import type { KnowledgeService } from '../knowledge/knowledge.service'
import { queryLogsRepository as logs, type AnswerMetricsRecord, type LogOutcome, type LogStatus, type QueryLogRecord } from '../query-logs/query-logs.repository'
import type { CurrentUser } from '../identity/identity.types'
import { scopeOf } from '../query-logs/query-logs.service'
import { QuestionLogWriter } from '../query-logs/question-log-writer'
import type { SettingsService } from '../settings/settings.service'
import { screenPassage, screenQuestion } from '../firewall/semantic-firewall'
import { threadsRepository as threads } from './threads.repository'

export const ASK_JOB = 'ask'
export { NOT_FOUND_ANSWER }

interface AskPayload {
  logId: number
  /** The model the asker chose (multiple_model); else llm_model or the provider's default, read when it runs. */
  model?: string
}

/** A streamed question, logged and checked, ready to be answered. */
export interface StreamedQuestion {
  logId: number
  threadId: number
  command: string
  settings: BotSettings
  model?: string
}

/** A question answered in this process, before anything about it is written: what its log will hold. */
interface AnsweredNow {
  outcome: LogOutcome
  /** How a composer wrote it; absent for a question the semantic firewall refused. */
  metrics?: AnswerMetricsRecord
}

/** A question to log: who asked what, in which thread (none: a thread of its own). */
interface QuestionEntry {
  command: string
  timezone?: string
  mode: string
  userId: number
  organizationId: number
  threadId?: number
}

/** One server-sent event of POST /ask_qa_stream. */
export type StreamEvent = { event: AnswerEvent['type']; data: unknown } | { event: 'done'; data: AskAnswer } | { event: 'error'; data: { message: string } }

const metricsOf = (answer: AnsweredQuestion): AnswerMetricsRecord => ({
  model: answer.model?.model ?? null,
  fallback: answer.fallback,
  tokensIn: answer.model?.tokensIn ?? null,
  tokensOut: answer.model?.tokensOut ?? null,
  firstTokenMs: answer.model?.firstTokenMs ?? null,
  totalMs: answer.model?.totalMs ?? null,
  note: answer.note,
  unsupported: answer.unsupported,
  screenedPassages: answer.model ? answer.model.screenedPassages : null,
})

/** What a logged answer adds to the AskAnswer: its note, unsupported sentences, model, thread and feedback. */
const answeringFieldsOf = (log: QueryLogRecord | undefined): Pick<AskAnswer, 'note' | 'unsupported' | 'model' | 'thread_id' | 'feedback' | 'feedback_reason' | 'related_list'> => ({
  related_list: log?.relatedList ?? [],
  note: log?.answering.note ?? null,
  unsupported: log?.answering.unsupported ?? [],
  model: log?.answering.fallback ? null : (log?.answering.model ?? null),
  thread_id: log?.threadId ?? null,
  feedback: log?.feedback ?? null,
  feedback_reason: log?.feedbackReason ?? null,
})

/** Answers questions from the knowledge base only, and logs every question; agent-mode commands go to the agents. */
/**
 * How long a streamed answer may be in writing before its log, still pending, is taken for one that could not be
 * produced (the backend stopped while writing it): longer than a model is given to answer.
 */
export const STREAM_WRITING_MS = 10 * 60_000

export class AskService {
  constructor(
    private readonly db: Database,
    private readonly jobs: JobQueue,
    private readonly knowledge: KnowledgeService,
    private readonly settings: SettingsService,
    private readonly waitMs: number,
    private readonly agents: AgentsService,
    /** The language model; without one (no LLM_BASE_URL) answers quote the sources, as they always have. */
    private readonly llm?: LlmProvider,
    /** Finds passages as Bot settings' search_type says; keyword search when not given. */
    retriever: Retriever = new KeywordRetriever(knowledge),
  ) {
    this.answerer = new QuestionAnswerer({ retriever, provider: llm, screenPassage })
    this.answeredLog = new QuestionLogWriter(db)
    jobs.register<AskPayload, { logId: number }>(ASK_JOB, (job, context) => this.runAsk(job, context))
  }

  private readonly answerer: QuestionAnswerer
  /** Answered questions are logged through it, several in one statement under load. */
  private readonly answeredLog: QuestionLogWriter

  /** Whether a language model is configured and which models an asker may choose (GET /ask_models). */
  async models(): Promise<AskModels> {
    const settings = await this.settings.botSettings()
    if (!this.llm) return { enabled: false, multiple_model: settings.multiple_model, default_model: null, models: [] }
    try {
      const models = await this.offeredModels()
      const defaultModel = settings.llm_model !== USE_DEFAULT_MODEL ? settings.llm_model : await this.llm.defaultModel()
      return { enabled: true, multiple_model: settings.multiple_model, default_model: defaultModel, models: settings.multiple_model ? models : [] }
    } catch {
      // The endpoint does not list its models right now: questions still get answers (quoted if need be).
      return { enabled: true, multiple_model: settings.multiple_model, default_model: null, models: [] }
    }
  }

  /** The models an asker may choose: the configured ones, less any the endpoint does not offer (a misspelt name). */
  private async offeredModels(): Promise<string[]> {
    if (!this.llm) return []
    const models = await this.llm.listModels()
    const missing = (await this.llm.unavailableModels?.().catch(() => undefined))?.missing ?? []
    return models.filter((model) => !missing.includes(model))
  }

  /** Refuses a model the asker may not choose: none is configured, multiple_model is off, or it is not offered. */
  private async checkModelChoice(settings: BotSettings, model: string | undefined): Promise<void> {
    if (model === undefined) return
    if (!this.llm) throw new InvalidInputError('model', 'No language model is configured: answers quote the sources; leave model out')
    if (!settings.multiple_model) throw new InvalidInputError('model', 'Choosing a model per question is off (Bot settings: multiple_model); leave model out')
    let offered: string[]
    try {
      offered = await this.offeredModels()
    } catch {
      throw new UpstreamError('The language model endpoint did not list its models; ask again, or leave model out')
    }
    if (!offered.includes(model)) throw new InvalidInputError('model', `Unknown model "${model}"; choose one of: ${offered.join(', ')}`)
  }

  /** The model of one answer: the asker's choice, else llm_model, else the provider's default (asked at run time). */
  private modelChooser(settings: BotSettings, chosen: string | undefined): (() => Promise<string>) | undefined {
    const llm = this.llm
    if (!llm) return undefined
    if (chosen !== undefined) return async () => chosen
    if (settings.llm_model && settings.llm_model !== USE_DEFAULT_MODEL) return async () => settings.llm_model
    return () => llm.defaultModel()
  }

  /**
   * Answers a question in this process (ADR 140). Answered within ASK_WAIT_MS, it is logged in one write, finished,
   * and the answer comes from memory; its task_id resolves through POST /ask_qa_answer like any other. Slower, it is
   * logged as pending with a job this process holds while it goes on answering: the reply is a task_id to poll, and
   * if this process dies the job is taken over and answered again by a worker.
   */
  async ask(user: CurrentUser, body: AskBody): Promise<AskAnswer> {
    if (body.mode === 'agent') return this.agents.start(user, body)
    const settings = await this.settings.botSettings()
    await this.checkModelChoice(settings, body.model)
    const history = await this.threadHistory(user, body.thread_id)
    const question: QuestionEntry = {
      command: body.command,
      timezone: body.timezone,
      mode: body.mode ?? 'expert',
      userId: user.id,
      organizationId: user.organizationId,
      threadId: body.thread_id,
    }
    const answering = this.answerNow(body.command, settings, body.model, history)
    // Its failure is dealt with below, possibly after the hand-off's own await: never an unhandled rejection.
    answering.catch(() => undefined)
    const settled = this.waitMs > 0 ? await settledWithin(answering, this.waitMs) : 'late'
    if (settled === 'answered') {
      const answered = await answering
      const taskId = randomUUID()
      const { id, threadId } = await this.answeredLog.insert({ ...question, taskId, outcome: answered.outcome, metrics: answered.metrics })
      return this.answerFromMemory(body.command, { id, threadId, taskId }, answered)
    }
    const { held, logId, threadId } = await this.handOff(question, body.model)
    if (settled === 'failed') {
      // As a claimed job's first failed attempt: back to the queue, tried again after a pause, then logged as failed.
      await held.fail(await answering.then(() => new Error('unreachable'), (error: unknown) => error))
      const job = (await this.jobs.waitFor(held.id, this.waitMs)) ?? (await this.jobs.get(held.id))
      if (job) return this.toAnswer(job, logId)
    } else {
      void answering
        .then(
          (answered) => held.finish({ logId }, async (tx) => void (await logs.complete(tx, logId, answered.outcome, answered.metrics))),
          (error: unknown) => held.fail(error),
        )
        .catch(() => undefined) // the database went away (shutdown): the job is recovered as a stale one
    }
    return {
      command: body.command,
      task_id: held.id,
      log_id: logId,
      log_agent_ask_qa: null,
      source_list: [],
      result: null,
      found: false,
      thread_id: threadId,
      success: false,
      status: 'running',
      error: null,
    }
  }

  /** Logs a question as pending with a job this process holds, both in one transaction. */
  private async handOff(question: QuestionEntry, model: string | undefined): Promise<{ held: HeldJob<AskPayload>; logId: number; threadId: number }> {
    let threadId = 0
    const held = await this.jobs.hold<AskPayload>(
      ASK_JOB,
      async (tx, jobId) => {
        const logged = await logs.insertQuestion(tx, { ...question, taskId: jobId })
        threadId = logged.threadId
        return { logId: logged.id, model }
      },
      { maxAttempts: 2 },
    )
    return { held, logId: held.payload.logId, threadId }
  }

  /** Answers (or refuses) a question with these settings, writing nothing. */
  private async answerNow(command: string, settings: BotSettings, model: string | undefined, history: PromptTurn[], signal?: AbortSignal): Promise<AnsweredNow> {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    const screening = settings.semantic_firewall ? screenQuestion(command) : null
    if (screening?.isBlocked) return { outcome: { answer: screening.refusal, sourceList: [], status: 'blocked', durationMs: elapsed() } }
    const answer = await this.answerer.complete({ question: command, settings, chooseModel: this.modelChooser(settings, model), history, signal })
    return {
      outcome: { answer: answer.text, sourceList: answer.sources, status: answer.isFound ? 'answered' : 'not_found', durationMs: elapsed(), relatedList: answer.related ?? [] },
      metrics: metricsOf(answer),
    }
  }

  /** The reply to a question answered at once, as POST /ask_qa_answer and GET /answer later give it from its log. */
  private answerFromMemory(command: string, logged: { id: number; threadId: number; taskId: string }, answered: AnsweredNow): AskAnswer {
    const { outcome, metrics } = answered
    return {
      command,
      task_id: logged.taskId,
      log_id: logged.id,
      log_agent_ask_qa: null,
      source_list: outcome.sourceList,
      result: outcome.answer,
      found: outcome.status === 'answered',
      related_list: outcome.relatedList ?? [],
      success: true,
      status: 'finished',
      error: null,
      note: metrics?.note ?? null,
      unsupported: metrics?.unsupported ?? [],
      model: metrics?.fallback ? null : (metrics?.model ?? null),
      thread_id: logged.threadId,
      feedback: null,
      feedback_reason: null,
    }
  }

  /**
   * The earlier answered turns a question in `threadId` is read with; a thread that is not the asker's own is refused
   * as if it did not exist (ADR 062's rule for logs). One read for both.
   */
  private async threadHistory(user: CurrentUser, threadId: number | undefined): Promise<PromptTurn[]> {
    if (threadId === undefined) return []
    const turns = await threads.ownThreadTurns(this.db, threadId, user.id, MAX_HISTORY_TURNS)
    if (!turns) throw new NotFoundError(`No thread ${threadId}`, { status: 'not found' })
    return turns.map((turn) => ({ question: turn.command, answer: turn.answer }))
  }

  /** Refuses a thread that is not the asker's own, as if it did not exist (ADR 062's rule for logs). */
  private async checkThread(user: CurrentUser, threadId: number | undefined): Promise<void> {
    if (threadId === undefined) return
    if (!(await threads.isOwnThread(this.db, threadId, user.id))) throw new NotFoundError(`No thread ${threadId}`, { status: 'not found' })
  }

  /** The earlier answered turns of a question's thread: what a follow-up is read with. */
  private async historyOf(logId: number): Promise<PromptTurn[]> {
    const turns = await threads.earlierTurns(this.db, logId, MAX_HISTORY_TURNS)
    return turns.map((turn) => ({ question: turn.command, answer: turn.answer }))
  }

  /** One of the caller's own threads, every question with its answer, oldest first (GET /ask_thread). */
  async thread(user: CurrentUser, threadId: number): Promise<AskThread> {
    const ids = await threads.turnIds(this.db, threadId, user.id)
    if (ids.length === 0) throw new NotFoundError(`No thread ${threadId}`, { status: 'not found' })
    const turns: AskAnswer[] = []
    for (const id of ids) turns.push(await this.answerOfLog(user, id))
    return { thread_id: threadId, turns }
  }

  /** The caller's own recent threads, the most recently continued first, after the `offset` newest (GET /ask_threads). */
  async threads(user: CurrentUser, limit: number, offset = 0): Promise<AskThreads> {
    const rows = await threads.recent(this.db, user.id, limit, offset)
    return { threads: rows.map((row) => ({ thread_id: row.threadId, command: row.command, turns: row.turns, last_asked: row.lastAskedAt.toISOString() })) }
  }

  /** The answer of an earlier ask by its task id. */
  async answerOf(user: CurrentUser, taskId: string): Promise<AskAnswer> {
    const job = await this.jobs.get(taskId)
    if (job?.kind === AGENT_JOB) return this.agents.answerOfJob(user, job)
    if (!job) {
      // An answer given at once has a task id but no job: its log holds everything.
      const log = await logs.findByTask(this.db, taskId, scopeOf(user))
      if (!log || log.mode === 'agent') throw new NotFoundError(`No task ${taskId}`, { status: 'not found' })
      return this.answerFromLog(log)
    }
    const logId = job.kind === ASK_JOB ? (job.payload as AskPayload).logId : undefined
    // Someone else's task (outside the caller's organisation) is as unknown as a task that never existed.
    if (!logId || !(await logs.find(this.db, logId, scopeOf(user)))) throw new NotFoundError(`No task ${taskId}`, { status: 'not found' })
    return this.toAnswer(job, logId)
  }

  /** The answer recorded in a log (GET /answer). */
  async answerOfLog(user: CurrentUser, logId: number): Promise<AskAnswer> {
    const log = await logs.find(this.db, logId, scopeOf(user))
    if (!log) throw new NotFoundError(`No query log ${logId}`, { status: 'not found' })
    if (log.mode === 'agent') return this.agents.answerOfLog(user, logId)
    const job = log.taskId ? await this.jobs.get(log.taskId) : undefined
    if (job) return this.toAnswer(job, logId)
    return this.answerFromLog(log)
  }

  /**
   * The answer of a log without a job: answered at once, or streamed. A streamed one still being written (its asker
   * left or reloaded the page, ADR 297) is running; one left pending past STREAM_WRITING_MS (the process ended while
   * writing it) could not be produced.
   */
  private answerFromLog(log: QueryLogRecord): AskAnswer {
    if (log.answer === null && log.status === 'pending' && Date.now() - log.createdAt.getTime() < STREAM_WRITING_MS) {
      return {
        command: log.command,
        task_id: log.taskId,
        log_id: log.id,
        log_agent_ask_qa: null,
        source_list: [],
        result: null,
        found: false,
        success: false,
        status: 'running',
        error: null,
        ...answeringFieldsOf(log),
      }
    }
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
      ...answeringFieldsOf(log),
    }
  }

  /** Checks and logs a question to stream (POST /ask_qa_stream); every refusal comes before the stream starts. */
  async openStream(user: CurrentUser, body: AskBody): Promise<StreamedQuestion> {
    if (body.mode === 'agent') throw new InvalidInputError('mode', 'Agent runs are not streamed: start them with POST /ask_qa')
    const settings = await this.settings.botSettings()
    await this.checkModelChoice(settings, body.model)
    await this.checkThread(user, body.thread_id)
    const { id: logId, threadId } = await logs.insertQuestion(this.db, {
      command: body.command,
      timezone: body.timezone,
      mode: body.mode ?? 'expert',
      userId: user.id,
      organizationId: user.organizationId,
      threadId: body.thread_id,
    })
    return { logId, threadId, command: body.command, settings, model: body.model }
  }

  /**
   * The events of a streamed answer: its text as it is written, its sources as they are cited, then `done` with
   * the whole answer (as POST /ask_qa gives it), once it is logged. A failure ends it with `error`; `signal` aborting
   * stops the model and logs the question as failed. The route gives none: an asker who leaves does not stop the
   * answer, which is written and logged for them to find again (ADR 297).
   */
  async *streamAnswer(question: StreamedQuestion, signal?: AbortSignal): AsyncGenerator<StreamEvent, void, undefined> {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    let isDone = false
    try {
      const screening = question.settings.semantic_firewall ? screenQuestion(question.command) : null
      if (screening?.isBlocked) {
        yield { event: 'delta', data: { text: screening.refusal } }
        isDone = true
        yield { event: 'done', data: this.streamedAnswer(question, { text: screening.refusal, isFound: false, sources: [], note: null, unsupported: [], model: null }) }
        await logs.complete(this.db, question.logId, { answer: screening.refusal, sourceList: [], status: 'blocked', durationMs: elapsed() })
        return
      }
      const answering = this.answerer.answer({
        question: question.command,
        settings: question.settings,
        chooseModel: this.modelChooser(question.settings, question.model),
        signal,
        history: await this.historyOf(question.logId),
      })
      for await (const event of answering.events) {
        const { type, ...data } = event
        yield { event: type, data }
      }
      const answer = await answering.result
      const durationMs = elapsed()
      // The reader has the whole answer at once; the log is written while the stream closes.
      isDone = true
      yield { event: 'done', data: this.streamedAnswer(question, { ...answer, model: answer.composer === 'model' ? (answer.model?.model ?? null) : null }) }
      await this.record(question.logId, answer, durationMs)
    } catch (error) {
      await logs.complete(this.db, question.logId, { answer: null, sourceList: [], status: 'failed', durationMs: elapsed() }).catch(() => undefined)
      if (signal?.aborted || isDone) return
      yield { event: 'error', data: { message: 'The answer could not be produced' } }
    }
  }

  /** Logs a finished answer with how it was written, in one write, so a log that leaves `pending` is complete. */
  private async record(logId: number, answer: AnsweredQuestion, durationMs: number): Promise<void> {
    await logs.complete(
      this.db,
      logId,
      { answer: answer.text, sourceList: answer.sources, status: answer.isFound ? 'answered' : 'not_found', durationMs, relatedList: answer.related ?? [] },
      metricsOf(answer),
    )
  }

  /** The `done` event: the answer as POST /ask_qa gives it (no task: a stream is answered in its request). */
  private streamedAnswer(
    question: StreamedQuestion,
    answer: Pick<AnsweredQuestion, 'text' | 'isFound' | 'sources' | 'note' | 'unsupported' | 'related'> & { model: string | null },
  ): AskAnswer {
    return {
      command: question.command,
      task_id: null,
      log_id: question.logId,
      log_agent_ask_qa: null,
      source_list: answer.sources,
      result: answer.text,
      found: answer.isFound,
      related_list: answer.related ?? [],
      success: true,
      status: 'finished',
      error: null,
      note: answer.note,
      unsupported: answer.unsupported,
      model: answer.model,
      thread_id: question.threadId,
      feedback: null,
      feedback_reason: null,
    }
  }

  /**
   * A question handed to the queue: taken over from a process that died, or tried again after a failure. Its log is
   * written only while this worker still holds the job and the log is pending, so a worker that was presumed dead (or
   * answered it before dying between the log and the job's end) never overwrites another's answer. A stop of this
   * worker aborts the answer: the job goes back to the queue, and the log stays pending for the next worker.
   */
  private async runAsk(job: Job<AskPayload, { logId: number }>, context: JobContext<{ logId: number }>) {
    const log = await logs.find(this.db, job.payload.logId)
    if (!log) throw new Error(`Query log ${job.payload.logId} is missing`)
    if (log.status !== 'pending') return { logId: log.id }
    const started = performance.now()
    const completeIfHeld = (outcome: Parameters<typeof logs.complete>[2], metrics?: Parameters<typeof logs.complete>[3]) =>
      this.db.transaction(async (tx) => {
        // Throws JobLostError (writing nothing) when the job is no longer this worker's.
        await context.reportProgress(1, 1, undefined, tx)
        await logs.complete(tx, log.id, outcome, metrics)
      })
    try {
      const settings = await this.settings.botSettings()
      const answered = await this.answerNow(log.command, settings, job.payload.model, await this.historyOf(log.id), context.signal)
      if (context.signal.aborted) throw new JobStoppedError()
      await completeIfHeld(answered.outcome, answered.metrics)
    } catch (error) {
      if (!context.signal.aborted && !(error instanceof JobLostError) && job.attempts >= job.maxAttempts) {
        await completeIfHeld({ answer: null, sourceList: [], status: 'failed', durationMs: Math.round(performance.now() - started) })
      }
      throw error
    }
    return { logId: log.id }
  }

  private async toAnswer(job: Job, logId: number): Promise<AskAnswer> {
    const log = await logs.find(this.db, logId)
    const base = { command: log?.command ?? null, task_id: job.id, log_id: logId, log_agent_ask_qa: null, source_list: [], result: null, found: false, thread_id: log?.threadId ?? null }
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
      ...answeringFieldsOf(log),
    }
  }
}

/** Whether `work` settles within `ms`: answered, failed, or still going ("late"). */
function settledWithin(work: Promise<unknown>, ms: number): Promise<'answered' | 'failed' | 'late'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('late'), ms)
    work.then(
      () => {
        clearTimeout(timer)
        resolve('answered')
      },
      () => {
        clearTimeout(timer)
        resolve('failed')
      },
    )
  })
}
