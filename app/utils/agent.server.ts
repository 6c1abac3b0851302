import { getSession, sessionStorage } from './session.server'

export type AgentVariant = 'general' | 'government'

export interface RunningAgentTask {
  taskId: string
  /** Kept by sessions from before: the command is read from the run itself, as a long one would overflow the cookie. */
  command?: string
}

// SEED.md §4: each variant keeps its own running task until the run ends (its command is the run's).
const keyOf = (variant: AgentVariant): 'agentTaskGeneral' | 'agentTaskGovernment' => (variant === 'general' ? 'agentTaskGeneral' : 'agentTaskGovernment')

export async function getRunningTask(request: Request, variant: AgentVariant): Promise<RunningAgentTask | null> {
  const session = await getSession(request)
  return (session.get(keyOf(variant)) as RunningAgentTask | undefined) ?? null
}

/** Remembers (or, with null, forgets) the variant's running task; returns the Set-Cookie header to send. */
export async function setRunningTask(request: Request, variant: AgentVariant, task: RunningAgentTask | null): Promise<string> {
  const session = await getSession(request)
  if (task) session.set(keyOf(variant), task)
  else session.unset(keyOf(variant))
  return sessionStorage().commitSession(session)
}
