import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useActionData, useFetcher } from '@remix-run/react'
import type { ReactNode } from 'react'
import { Button } from '~/components/ui/button'
import { TextField } from '~/components/ui/text-field'
import type { z } from 'zod'
import type { LogFormData } from './log-forms'
import { EnhancedField } from './use-hydrated'

interface CommentFormProps {
  formId: string
  intent: string
  /** The form's schema (its `intent` literal and a `comment`), for conform's validation on the client. */
  schema: z.ZodObject<{ intent: z.ZodLiteral<string>; comment: z.ZodType<string | undefined> }>
  /** Accessible name of the form. */
  label: string
  fieldLabel: string
  submitLabel: string
  defaultValue?: string
  isRequired?: boolean
  hidden?: Record<string, string | number>
  /** Posts here instead of the current route (for example the saved-queries screen's own action). */
  action?: string
  children?: ReactNode
}

/**
 * A comment form: a fetcher form with scripts on (the action answers JSON, the page revalidates in place and the flash
 * toast shows), a plain post/redirect/get without. Errors come back beside the field either way.
 */
export function CommentForm({ formId, intent, schema, label, fieldLabel, submitLabel, defaultValue, isRequired = true, hidden = {}, action, children }: CommentFormProps) {
  const fetcher = useFetcher<LogFormData>()
  const actionData = useActionData<LogFormData>()
  const data = fetcher.data ?? actionData
  const [form, fields] = useForm({
    id: formId,
    lastResult: data?.formId === formId ? data.result : undefined,
    constraint: getZodConstraint(schema),
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  const comment = fields as unknown as Record<'comment', { name: string; id: string; errors?: string[]; initialValue?: unknown }>
  const initialValue = typeof comment.comment.initialValue === 'string' ? comment.comment.initialValue : defaultValue
  return (
    <fetcher.Form method="post" action={action} {...getFormProps(form)} aria-label={label}>
      <EnhancedField />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="form_id" value={formId} />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <TextField
        label={fieldLabel}
        name="comment"
        id={`${formId}-comment`}
        defaultValue={initialValue}
        errors={comment.comment.errors}
        isRequired={isRequired}
        isMultiline
        rows={3}
        maxLength={5000}
      />
      <Button isDisabled={fetcher.state !== 'idle'}>{fetcher.state === 'submitting' ? 'Saving…' : submitLabel}</Button>
      {children}
    </fetcher.Form>
  )
}

/** A one-button fetcher form (delete a comment, delete a saved query): scripts on or off alike. */
export function ActionButtonForm({
  formId,
  intent,
  label,
  buttonLabel,
  hidden = {},
  action,
  variant = 'danger',
}: {
  formId: string
  intent: string
  /** Accessible name of the form, e.g. 'Delete comment 2'. */
  label: string
  buttonLabel: string
  hidden?: Record<string, string | number>
  action?: string
  variant?: 'danger' | 'secondary'
}) {
  const fetcher = useFetcher()
  return (
    <fetcher.Form method="post" action={action} id={formId} aria-label={label}>
      <EnhancedField />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="form_id" value={formId} />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button variant={variant} isDisabled={fetcher.state !== 'idle'}>
        {buttonLabel}
      </Button>
    </fetcher.Form>
  )
}
