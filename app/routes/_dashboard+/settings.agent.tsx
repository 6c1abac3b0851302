import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { AgentVariant } from '../../../contracts/agents'
import { USE_DEFAULT_MODEL } from '../../../contracts/settings'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import {
  agentFieldLabel,
  agentFieldName,
  AgentSettingsForm,
  applyAgentIntent,
  readAgentDraft,
  toAgentDraft,
  toAgentFormErrors,
  toolFieldName,
  type AgentDraft,
} from '~/components/settings/agent-settings-form'
import { ErrorSummary, type FieldProblem } from '~/components/settings/error-summary'
import { checkOnSave, DefaultSubmit, IntentButton } from '~/components/settings/intent-button'
import { NumberField } from '~/components/settings/number-field'
import * as styles from '~/components/settings/settings.css'
import * as layout from '~/styles/layout.css'
import { Button } from '~/components/ui/button'
import { Switch } from '~/components/ui/checkbox'
import { Select } from '~/components/ui/select'
import { TextField } from '~/components/ui/text-field'
import { ApiError } from '~/models/api.server'
import { getAgentSettings, updateAgentSettings } from '~/models/settings.server'
import { requireApiSession } from '~/utils/auth.server'
import { redirectWithToast } from '~/utils/session.server'
import { screenMeta } from '~/sponsors/meta'
import { readFormData } from '~/utils/form.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Agent settings · Settings')

export async function loader({ request }: LoaderFunctionArgs) {
  // A new id on every load remounts the form after a save, so its uncontrolled fields show what was saved.
  return json({ settings: await getAgentSettings(await requireApiSession(request)), loadId: crypto.randomUUID() })
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readFormData(request)
  const intent = String(formData.get('intent') ?? 'save')
  const submission = parseWithZod(formData, { schema: AgentSettingsForm })
  // The posted form as typed, blank fields included, so a re-shown form keeps every row.
  const draft = readAgentDraft(submission.payload)
  // A new id on every answer remounts the form, so its uncontrolled fields show this draft.
  const draftId = crypto.randomUUID()
  if (intent !== 'save') return json({ draft: applyAgentIntent(draft, intent), draftId, result: null })
  if (submission.status !== 'success') return json({ draft, draftId, result: submission.reply() }, { status: 400 })
  try {
    await updateAgentSettings(await requireApiSession(request), submission.value)
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      const { '': unplaced = [], ...fieldErrors } = toAgentFormErrors(error.fieldErrors(), draft)
      const formErrors = Object.keys(fieldErrors).length ? unplaced : [...unplaced, error.message]
      return json({ draft, draftId, result: submission.reply({ fieldErrors, formErrors: [...new Set(formErrors)] }) }, { status: error.status })
    }
    throw error
  }
  return redirectWithToast(request, '/settings/agent', { summary: 'All Ok', message: 'Agent settings saved' })
}

const humanize = (field: string) => {
  const words = field.replaceAll('_', ' ')
  const label = words.charAt(0).toUpperCase() + words.slice(1)
  return field.endsWith('_tools') ? `${label} (comma-separated)` : label
}
const isLongField = (field: string) => field === 'description' || field === 'instructions' || field.endsWith('prompt')

export default function AgentSettingsRoute() {
  const { settings, loadId } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const draft: AgentDraft = actionData?.draft ?? toAgentDraft(settings)
  const [form] = useForm({
    id: 'agent-settings',
    lastResult: actionData?.result,
    shouldValidate: 'onSubmit',
    defaultNoValidate: false,
    onValidate: ({ formData }) => checkOnSave(formData, (posted) => parseWithZod(posted, { schema: AgentSettingsForm })),
  })
  const errorsOf = (name: string) => form.allErrors[name]
  // Without scripts a refused save reloads the page at its top: the problems are listed there, each linking to its
  // field further down (a tool or an agent can be a long way down).
  const problems: FieldProblem[] = Object.entries(form.allErrors)
    .filter(([name, messages]) => name !== form.id && messages.length > 0)
    .map(([name, messages]) => ({ name, messages, ...agentFieldLabel(name) }))
    .sort((a, b) => a.order - b.order)
    .map(({ name, label, messages }) => ({ id: `agent-${name}`, label, messages }))
  // 'Use default model' is not in the clean list; it is the empty (default) choice.
  const models = [
    { value: '', label: USE_DEFAULT_MODEL },
    ...settings.llm_models.filter((model) => model !== USE_DEFAULT_MODEL).map((model) => ({ value: model, label: model })),
  ]
  const isBusy = navigation.state === 'submitting'
  // As saved: a variant runs only as the agent named after it (ADR 280).
  const offVariants = AgentVariant.options.filter((variant) => !settings.agents.some((agent) => agent.name?.trim().toLowerCase() === variant))
  return (
    <>
      <h2>Agent settings</h2>
      <p>
        The model, limits, shortcuts, tools and agents of the Agent screen. The agent named “general” runs the general
        agent and the one named “government” the government agent, each with only the tools its _tools fields list.
      </p>
      {offVariants.map((variant) => (
        <p key={variant} role="note" className={layout.notice} data-severity="warn">
          No agent is named “{variant}”, so the {variant} agent is off: its screen says so and runs nothing. Add an agent
          named “{variant}” to turn it on.
        </p>
      ))}
      {settings.model_configured ? null : (
        <p role="note" className={layout.notice} data-severity="warn">
          No language model is configured, so agents plan and answer without one and no model can be chosen; tool
          descriptions and agent instructions are kept for when one is (the server’s administrator sets LLM_BASE_URL).
        </p>
      )}
      <Form method="post" key={actionData?.draftId ?? loadId} {...getFormProps(form)}>
        <DefaultSubmit />
        <ErrorSummary id={form.errorId} formErrors={form.errors} problems={problems} />

        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Agent</legend>
          <div className={styles.grid}>
            {settings.model_configured ? (
              <Select label="LLM model" name="llm_model" id="agent-llm_model" options={models} defaultValue={draft.llm_model} errors={errorsOf('llm_model')} />
            ) : (
              <input type="hidden" name="llm_model" value={draft.llm_model} />
            )}
            <NumberField
              label="Max iterations"
              name="max_iteration"
              id="agent-max_iteration"
              defaultValue={draft.max_iteration}
              errors={errorsOf('max_iteration')}
              min={0}
              max={50}
              isRequired
              description="Steps an agent may take; 0 means the default limit."
            />
          </div>
          <Switch
            label="Debug trace"
            name="toggle_debug"
            id="agent-toggle_debug"
            defaultSelected={draft.toggle_debug}
            description="Adds the agent's steps to its answer."
          />
          <Switch
            label="Semantic firewall"
            name="semantic_firewall"
            id="agent-semantic_firewall"
            defaultSelected={draft.semantic_firewall}
            description="Screens each command before the agent runs."
          />
        </fieldset>

        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Query shortcuts</legend>
          {draft.shortcuts.map((shortcut, index) => {
            const n = index + 1
            return (
              <div key={n} className={styles.row}>
                <TextField
                  label={`Shortcut ${n} query`}
                  name={`query_shortcut_${n}_query`}
                  id={`agent-query_shortcut_${n}_query`}
                  defaultValue={shortcut.query}
                  errors={errorsOf(`query_shortcut_${n}_query`)}
                  maxLength={500}
                />
                <div className={styles.rowButtons}>
                  <Switch
                    label={`Shortcut ${n} enabled`}
                    name={`query_shortcut_${n}_enabled`}
                    id={`agent-query_shortcut_${n}_enabled`}
                    defaultSelected={shortcut.enabled}
                  />
                </div>
              </div>
            )
          })}
        </fieldset>

        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Tools</legend>
          <p>What agents can use. A blank row is ignored.</p>
          {draft.tools.map((tool, row) => (
            <div key={row} className={styles.wideRow}>
              <TextField
                label={`Tool ${row + 1} name`}
                name={toolFieldName(row, 'name')}
                id={`agent-${toolFieldName(row, 'name')}`}
                defaultValue={tool.name}
                errors={errorsOf(toolFieldName(row, 'name'))}
                maxLength={100}
              />
              <TextField
                label={`Tool ${row + 1} description`}
                name={toolFieldName(row, 'description')}
                id={`agent-${toolFieldName(row, 'description')}`}
                defaultValue={tool.description}
                errors={errorsOf(toolFieldName(row, 'description'))}
                isMultiline
                rows={2}
              />
              <div className={styles.rowButtons}>
                <IntentButton value={`remove-tool:${row}`} variant="danger" label={`Remove tool ${row + 1}`}>
                  Remove
                </IntentButton>
              </div>
            </div>
          ))}
          <div className={styles.rowActions}>
            <IntentButton value="add-tool">Add tool row</IntentButton>
          </div>
        </fieldset>

        {draft.agents.map(({ fields, newField }, row) => (
          <fieldset key={row} className={styles.fieldset}>
            <legend className={styles.legend}>Agent {row + 1}</legend>
            <div className={styles.grid}>
              {fields
                .filter(([field]) => !isLongField(field))
                .map(([field, value]) => (
                  <TextField
                    key={field}
                    label={humanize(field)}
                    name={agentFieldName(row, field)}
                    id={`agent-${agentFieldName(row, field)}`}
                    defaultValue={value}
                    errors={errorsOf(agentFieldName(row, field))}
                  />
                ))}
            </div>
            {fields
              .filter(([field]) => isLongField(field))
              .map(([field, value]) => (
                <TextField
                  key={field}
                  label={humanize(field)}
                  name={agentFieldName(row, field)}
                  id={`agent-${agentFieldName(row, field)}`}
                  defaultValue={value}
                  errors={errorsOf(agentFieldName(row, field))}
                  isMultiline
                  rows={3}
                />
              ))}
            <div className={styles.grid}>
              <TextField
                label="New field name"
                name={agentFieldName(row, '_new_field')}
                id={`agent-${agentFieldName(row, '_new_field')}`}
                defaultValue={newField.name}
                errors={errorsOf(agentFieldName(row, '_new_field'))}
                description="snake_case; a name ending in _tools lists tools."
              />
              <TextField
                label="New field value"
                name={agentFieldName(row, '_new_value')}
                id={`agent-${agentFieldName(row, '_new_value')}`}
                defaultValue={newField.value}
                errors={errorsOf(agentFieldName(row, '_new_value'))}
              />
            </div>
            <p>Clear a field (other than its name) to remove it from the agent.</p>
            <div className={styles.rowActions}>
              <IntentButton value={`remove-agent:${row}`} variant="danger" label={`Remove agent ${row + 1}`}>
                Remove agent
              </IntentButton>
            </div>
          </fieldset>
        ))}

        <div className={styles.actions}>
          <IntentButton value="add-agent">Add agent</IntentButton>
          <Button name="intent" value="save" isDisabled={isBusy}>
            Save agent settings
          </Button>
        </div>
      </Form>
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
