import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form, Link, useNavigation } from '@remix-run/react'
import { Button } from '../ui/button'
import * as controls from '../ui/controls.css'
import { fieldProps, TextField } from '../ui/text-field'
import { FormErrors } from './failure-message'
import { DefaultSubmit } from './intent-button'
import { TemplateForm, type TemplateFormValue } from './template-form-schema'
import * as styles from './settings.css'

interface TemplateFormProps {
  id: string
  defaultValue: { name: string; description: string; instructions: string; sections: { title: string; instructions: string }[] }
  lastResult?: SubmissionResult<string[]> | null
  submitLabel: string
}

/**
 * Name, description, instructions and the ordered output sections of a template. Adding, removing and moving
 * sections are submit buttons (conform intents): without JavaScript the server applies them and shows the form
 * again; with it they happen in place.
 */
export function TemplateFormBody({ id, defaultValue, lastResult, submitLabel }: TemplateFormProps) {
  const navigation = useNavigation()
  const [form, fields] = useForm<TemplateFormValue>({
    id,
    defaultValue: { ...defaultValue, sections: [...defaultValue.sections, { title: '', instructions: '' }] },
    lastResult,
    constraint: getZodConstraint(TemplateForm),
    defaultNoValidate: false,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TemplateForm }),
  })
  const sections = fields.sections.getFieldList()
  return (
    <Form method="post" {...getFormProps(form)}>
      <DefaultSubmit />
      <FormErrors id={form.errorId} errors={form.errors} />
      <TextField
        label="Name"
        {...fieldProps(fields.name)}
        isRequired
        maxLength={200}
      />
      <TextField
        label="Description"
        {...fieldProps(fields.description)}
        isMultiline
        rows={2}
        maxLength={2000}
      />
      <TextField
        label="Instructions"
        {...fieldProps(fields.instructions)}
        description="How the government agent should write the whole document."
        isMultiline
        rows={4}
        maxLength={20000}
      />
      <fieldset className={styles.fieldset} aria-describedby={fields.sections.errors ? fields.sections.errorId : undefined}>
        <legend className={styles.legend}>Sections</legend>
        <p>The document's headings, in order: at least one. A blank last row is left out.</p>
        {fields.sections.errors ? (
          <p className={controls.error} role="alert" id={fields.sections.errorId}>
            {fields.sections.errors.join(' ')}
          </p>
        ) : null}
        <ol style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {sections.map((item, index) => {
            const section = item.getFieldset()
            const n = index + 1
            return (
              <li key={item.key} className={styles.wideRow} aria-label={`Section ${n}`}>
                <TextField
                  label={`Section ${n} title`}
                  {...fieldProps(section.title)}
                  maxLength={200}
                />
                <TextField
                  label={`Section ${n} instructions`}
                  {...fieldProps(section.instructions)}
                  isMultiline
                  rows={2}
                  maxLength={5000}
                />
                <div className={styles.rowButtons}>
                  <button
                    {...form.reorder.getButtonProps({ name: fields.sections.name, from: index, to: index - 1 })}
                    formNoValidate
                    disabled={index === 0}
                    className={controls.button}
                    data-variant="secondary"
                    aria-label={`Move section ${n} up`}
                  >
                    ↑ Up
                  </button>
                  <button
                    {...form.reorder.getButtonProps({ name: fields.sections.name, from: index, to: index + 1 })}
                    formNoValidate
                    disabled={index === sections.length - 1}
                    className={controls.button}
                    data-variant="secondary"
                    aria-label={`Move section ${n} down`}
                  >
                    ↓ Down
                  </button>
                  <button
                    {...form.remove.getButtonProps({ name: fields.sections.name, index })}
                    formNoValidate
                    className={controls.button}
                    data-variant="danger"
                    aria-label={`Remove section ${n}`}
                  >
                    Remove
                  </button>
                </div>
              </li>
            )
          })}
        </ol>
        <div className={styles.rowActions}>
          <button
            {...form.insert.getButtonProps({ name: fields.sections.name, defaultValue: { title: '', instructions: '' } })}
            formNoValidate
            className={controls.button}
            data-variant="secondary"
          >
            Add section
          </button>
        </div>
      </fieldset>
      <div className={styles.actions}>
        <Button isDisabled={navigation.state === 'submitting'}>{submitLabel}</Button>
        <Link to="/settings/templates">Cancel</Link>
      </div>
    </Form>
  )
}
