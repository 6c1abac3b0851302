import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { BotType, HybridFusion, SearchType, type BotSettings } from '../../../contracts/settings'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ErrorSummary, type FieldProblem } from '~/components/settings/error-summary'
import { toConformErrors } from '~/components/settings/form-errors'
import { inFormWords } from '~/utils/form-words'
import { NumberField } from '~/components/settings/number-field'
import * as styles from '~/components/settings/settings.css'
import * as layout from '~/styles/layout.css'
import { Button } from '~/components/ui/button'
import { isPostedTrue, PostedBoolean, Switch } from '~/components/ui/checkbox'
import { Select } from '~/components/ui/select'
import { fieldProps, TextField } from '~/components/ui/text-field'
import { ApiError } from '~/models/api.server'
import { getBotSettings, updateBotSettings } from '~/models/settings.server'
import { requireApiSession } from '~/utils/auth.server'
import { redirectWithToast } from '~/utils/session.server'
import { screenMeta } from '~/sponsors/meta'
import { readFormData } from '~/utils/form.server'

export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Bot settings · Settings')

const text = (label: string, max: number) => z.string().max(max, `${label} is at most ${max} characters`).default('')
const ZERO_TO_ONE = 'Please enter a number from 0 to 1'
const zeroToOne = () => z.number({ error: ZERO_TO_ONE }).min(0, ZERO_TO_ONE).max(1, ZERO_TO_ONE)

/** Every bot setting of SEED.md §3; the switches post 'true'/'false' (SEED.md §5). */
const BotSettingsForm = z.object({
  bot_description: text('The description', 5000),
  bot_who_am_i: text('Who am I', 5000),
  bot_type: z.enum(BotType.options, { error: 'Please choose a bot type' }),
  bot_language: text('The language', 100),
  bot_prefix: text('The prefix', 5000),
  sms_prompt_text: text('The SMS prompt', 5000),
  llm_model: z.string({ error: 'Please choose a model' }).max(200),
  search_type: z.enum(SearchType.options, { error: 'Please choose a search type' }),
  num_sources_k: z
    .number({ error: 'Please enter a whole number from 1 to 20' })
    .int('Please enter a whole number from 1 to 20')
    .min(1, 'Please enter a whole number from 1 to 20')
    .max(20, 'Please enter a whole number from 1 to 20'),
  score_threshold: z.number({ error: 'Please enter a number of 0 or more' }).min(0, 'Please enter a number of 0 or more'),
  hybrid_fusion: z.enum(HybridFusion.options, { error: 'Please choose how the two lists are fused' }),
  hybrid_keyword_weight: zeroToOne(),
  hybrid_vector_weight: zeroToOne(),
  mmr_lambda: zeroToOne(),
  semantic_firewall: PostedBoolean,
  multiple_model: PostedBoolean,
  query_shortcuts: z.array(z.object({ enabled: PostedBoolean, query: text('A shortcut', 500) })).length(3),
  template_bot_prefix: text('The template prefix', 5000),
  template_bot_description: text('The template description', 5000),
  template_bot_language: text('The template language', 100),
  template_context: text('The template context', 10000),
  template_query: text('The template query', 10000),
}).superRefine((settings, context) => {
  // Hybrid search adds the two weighted lists: with both weights at 0 nothing would rank.
  if (settings.hybrid_keyword_weight === 0 && settings.hybrid_vector_weight === 0) {
    context.addIssue({ code: 'custom', path: ['hybrid_vector_weight'], message: 'The keyword and vector weights cannot both be 0' })
  }
})

/** The fields' labels, in the form's order: the shortcuts come between these and the template agent's. */
const BOT_LABELS = {
  bot_type: 'Bot type',
  bot_language: 'Bot language',
  bot_description: 'Bot description',
  bot_who_am_i: 'Who am I',
  bot_prefix: 'Bot prefix',
  sms_prompt_text: 'SMS prompt text',
  llm_model: 'LLM model',
  search_type: 'Search type',
  num_sources_k: 'Number of sources',
  score_threshold: 'Score threshold',
  semantic_firewall: 'Semantic firewall',
  multiple_model: 'Multiple models',
  hybrid_fusion: 'Hybrid fusion',
  hybrid_keyword_weight: 'Keyword weight',
  hybrid_vector_weight: 'Vector weight',
  mmr_lambda: 'MMR relevance (λ)',
} as const
const TEMPLATE_LABELS = {
  template_bot_language: 'Template bot language',
  template_bot_prefix: 'Template bot prefix',
  template_bot_description: 'Template bot description',
  template_context: 'Template context',
  template_query: 'Template query',
} as const
const LABELS = { ...BOT_LABELS, ...TEMPLATE_LABELS }

const BOT_TYPE_LABELS: Record<BotType, string> = { qa: 'Complete answer', sms: 'Short text message' }
const BOT_TYPES = BotType.options.map((value) => ({ value, label: BOT_TYPE_LABELS[value] }))

const SEARCH_TYPES = [
  { value: 'keyword', label: 'Keyword (BM25)' },
  { value: 'vector', label: 'Vector (embeddings)' },
  { value: 'hybrid', label: 'Hybrid (rank fusion)' },
  { value: 'mmr', label: 'MMR (diverse sources)' },
] as const

const HYBRID_FUSIONS = [
  { value: 'weighted', label: 'Weighted scores' },
  { value: 'rrf', label: 'Reciprocal rank fusion (RRF)' },
] as const

export async function loader({ request }: LoaderFunctionArgs) {
  return json({ settings: await getBotSettings(await requireApiSession(request)) })
}

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await readFormData(request), { schema: BotSettingsForm })
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: 400 })
  try {
    await updateBotSettings(await requireApiSession(request), submission.value)
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      const fieldErrors = Object.fromEntries(
        Object.entries(toConformErrors(error.fieldErrors())).map(([name, messages]) => [name, messages.map((message) => inFormWords(message, LABELS))]),
      )
      const formErrors = Object.keys(fieldErrors).length ? [] : [inFormWords(error.message, LABELS)]
      return json({ result: submission.reply({ fieldErrors, formErrors }) }, { status: error.status })
    }
    throw error
  }
  return redirectWithToast(request, '/settings', { summary: 'All Ok', message: 'Bot settings saved' })
}

/** The stored settings as the form posts them. */
function toFormValues(settings: BotSettings) {
  return {
    ...settings,
    num_sources_k: String(settings.num_sources_k),
    score_threshold: String(settings.score_threshold),
    hybrid_keyword_weight: String(settings.hybrid_keyword_weight),
    hybrid_vector_weight: String(settings.hybrid_vector_weight),
    mmr_lambda: String(settings.mmr_lambda),
    semantic_firewall: String(settings.semantic_firewall),
    multiple_model: String(settings.multiple_model),
    query_shortcuts: settings.query_shortcuts.map((shortcut) => ({ enabled: String(shortcut.enabled), query: shortcut.query })),
  }
}

export default function BotSettingsRoute() {
  const { settings } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm({
    id: 'bot-settings',
    defaultValue: toFormValues(settings),
    lastResult: actionData?.result,
    constraint: getZodConstraint(BotSettingsForm),
    shouldValidate: 'onBlur',
    defaultNoValidate: false,
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BotSettingsForm }),
  })
  const value = (field: { initialValue?: unknown }) => (typeof field.initialValue === 'string' ? field.initialValue : '')
  const textField = (name: keyof typeof LABELS, options: { isMultiline?: boolean; description?: string; maxLength?: number } = {}) => {
    const field = fields[name]
    return <TextField label={LABELS[name]} {...fieldProps(field)} rows={3} {...options} />
  }
  const labelled = (labels: Partial<typeof LABELS>) =>
    Object.entries(labels).map(([name, label]) => ({ field: fields[name as keyof typeof LABELS], label }))
  const shortcuts = fields.query_shortcuts.getFieldList().map((item, index) => ({ field: item.getFieldset().query, label: `Shortcut ${index + 1} query` }))
  const problems: FieldProblem[] = [...labelled(BOT_LABELS), ...shortcuts, ...labelled(TEMPLATE_LABELS)].flatMap(({ field, label }) =>
    field.errors?.length ? [{ id: field.id, label, messages: field.errors }] : [],
  )
  const models = settings.llm_models.map((model) => ({ value: model, label: model }))
  // Prompt fields act only through a language model; without one the screen says so beside each.
  const withModel = (description: string) => (settings.model_configured ? description : `${description} Takes effect with a language model.`)
  return (
    <>
      <h2>Bot settings</h2>
      <p>How the assistant answers on the Ask screen.</p>
      {settings.model_configured ? null : (
        <p role="note" className={layout.notice} data-severity="warn">
          No language model is configured, so answers quote the sources directly. The model choices are not offered, and
          the prompt fields marked “with a language model” are kept for when one is: the server’s administrator sets
          LLM_BASE_URL (see the README).
        </p>
      )}
      <Form method="post" {...getFormProps(form)}>
        <ErrorSummary id={form.errorId} formErrors={form.errors} problems={problems} />

        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>The assistant</legend>
          <div className={styles.grid}>
            <Select
              label={LABELS.bot_type}
              {...fieldProps(fields.bot_type)}
              options={BOT_TYPES}
              description={withModel('A complete answer, or a short one that fits in a text message.')}
            />
            {textField('bot_language', { maxLength: 100, description: withModel('The language of every answer.') })}
          </div>
          {textField('bot_description', { isMultiline: true, description: withModel('Who the assistant is, told to the language model.') })}
          {textField('bot_who_am_i', { isMultiline: true, description: 'Shown above the question on the Ask screen.' })}
          {textField('bot_prefix', { isMultiline: true, description: withModel('Put before every prompt to the language model.') })}
          {textField('sms_prompt_text', { isMultiline: true, description: withModel('Extra instructions for sms answers.') })}
        </fieldset>

        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Answers</legend>
          <div className={styles.grid}>
            {settings.model_configured ? (
              <Select
                label={LABELS.llm_model}
                {...fieldProps(fields.llm_model)}
                options={models}
              />
            ) : (
              <input type="hidden" name={fields.llm_model.name} value={value(fields.llm_model)} />
            )}
            <Select
              label={LABELS.search_type}
              {...fieldProps(fields.search_type)}
              // Without an embeddings model only keyword search runs: the others are not offered (a stored one stays
              // shown, so the page says what is set).
              options={settings.embeddings_configured ? SEARCH_TYPES : SEARCH_TYPES.filter((type) => type.value === 'keyword' || type.value === settings.search_type)}
              description={
                settings.embeddings_configured
                  ? undefined
                  : 'Vector, hybrid and MMR search compare embeddings; no embeddings model is configured (EMBEDDINGS_MODEL), so search is by keyword.'
              }
            />
            <NumberField
              label={LABELS.num_sources_k}
              name={fields.num_sources_k.name}
              id={fields.num_sources_k.id}
              defaultValue={value(fields.num_sources_k)}
              errors={fields.num_sources_k.errors}
              min={1}
              max={20}
              isRequired
              description="How many sources an answer is built from (1 to 20)."
            />
            <NumberField
              label={LABELS.score_threshold}
              name={fields.score_threshold.name}
              id={fields.score_threshold.id}
              defaultValue={value(fields.score_threshold)}
              errors={fields.score_threshold.errors}
              min={0}
              step="any"
              isRequired
              description="Sources scoring below it are left out; 0 keeps them all."
            />
          </div>
          <Switch
            label={LABELS.semantic_firewall}
            name={fields.semantic_firewall.name}
            id={fields.semantic_firewall.id}
            defaultSelected={isPostedTrue(fields.semantic_firewall.initialValue)}
            errors={fields.semantic_firewall.errors}
            description="Screens each question before it is answered."
          />
          {settings.model_configured ? (
            <Switch
              label={LABELS.multiple_model}
              name={fields.multiple_model.name}
              id={fields.multiple_model.id}
              defaultSelected={isPostedTrue(fields.multiple_model.initialValue)}
              errors={fields.multiple_model.errors}
              description="Lets the asker choose the model of each question on the Ask screen."
            />
          ) : (
            <input type="hidden" name={fields.multiple_model.name} value={value(fields.multiple_model)} />
          )}
        </fieldset>

        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Hybrid and MMR search</legend>
          <p>
            Used when the search type is Hybrid or MMR, which need an embeddings model.
            {settings.embeddings_configured ? null : ' None is configured: these are kept for when one is.'}
          </p>
          <div className={styles.grid}>
            <Select
              label={LABELS.hybrid_fusion}
              {...fieldProps(fields.hybrid_fusion)}
              options={HYBRID_FUSIONS}
              description="How the keyword and vector results are merged."
            />
            <NumberField
              label={LABELS.hybrid_keyword_weight}
              name={fields.hybrid_keyword_weight.name}
              id={fields.hybrid_keyword_weight.id}
              defaultValue={value(fields.hybrid_keyword_weight)}
              errors={fields.hybrid_keyword_weight.errors}
              min={0}
              max={1}
              step="any"
              isRequired
              description="Share of the keyword results in hybrid search (0 to 1)."
            />
            <NumberField
              label={LABELS.hybrid_vector_weight}
              name={fields.hybrid_vector_weight.name}
              id={fields.hybrid_vector_weight.id}
              defaultValue={value(fields.hybrid_vector_weight)}
              errors={fields.hybrid_vector_weight.errors}
              min={0}
              max={1}
              step="any"
              isRequired
              description="Share of the vector results in hybrid search (0 to 1)."
            />
            <NumberField
              label={LABELS.mmr_lambda}
              name={fields.mmr_lambda.name}
              id={fields.mmr_lambda.id}
              defaultValue={value(fields.mmr_lambda)}
              errors={fields.mmr_lambda.errors}
              min={0}
              max={1}
              step="any"
              isRequired
              description="From 0 (most diverse sources) to 1 (most relevant)."
            />
          </div>
        </fieldset>

        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Query shortcuts</legend>
          {fields.query_shortcuts.getFieldList().map((item, index) => {
            const shortcut = item.getFieldset()
            return (
              <div key={item.key} className={styles.row}>
                <TextField
                  label={`Shortcut ${index + 1} query`}
                  name={shortcut.query.name}
                  id={shortcut.query.id}
                  defaultValue={value(shortcut.query)}
                  errors={shortcut.query.errors}
                  maxLength={500}
                />
                <div className={styles.rowButtons}>
                  <Switch
                    label={`Shortcut ${index + 1} enabled`}
                    name={shortcut.enabled.name}
                    id={shortcut.enabled.id}
                    defaultSelected={isPostedTrue(shortcut.enabled.initialValue)}
                  />
                </div>
              </div>
            )
          })}
        </fieldset>

        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Template agent</legend>
          <div className={styles.grid}>{textField('template_bot_language', { maxLength: 100, description: withModel('The government agent’s language; empty: Bot language.') })}</div>
          {textField('template_bot_prefix', { isMultiline: true, description: withModel('The government agent’s prefix; empty: Bot prefix.') })}
          {textField('template_bot_description', { isMultiline: true, description: withModel('The government agent’s description; empty: Bot description.') })}
          {textField('template_context', { isMultiline: true, description: withModel('How the sources are given to the model, with {context}; empty: the built-in layout.') })}
          {textField('template_query', { isMultiline: true, description: withModel('How the question is given to the model, with {question}; empty: the built-in layout.') })}
        </fieldset>

        <div className={styles.actions}>
          <Button isDisabled={navigation.state === 'submitting'}>Save bot settings</Button>
        </div>
      </Form>
    </>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
