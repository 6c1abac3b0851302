import { CalendarDate } from '@internationalized/date'
import { useRef, useState } from 'react'
import {
  Button as AriaButton,
  Calendar,
  CalendarCell,
  CalendarGrid,
  CalendarGridBody,
  CalendarGridHeader,
  CalendarHeaderCell,
  Dialog,
  DialogTrigger,
  Heading,
  I18nProvider,
  Popover,
} from 'react-aria-components'
import { useHydrated } from '~/components/logs/use-hydrated'
import * as styles from './data-table.css'
import { displayFilterDate, formatFilterDate, parseFilterDate } from './table-url'

interface DateInputProps {
  id: string
  name: string
  /** The accessible name of the field, also used for the calendar button ("Choose <label> date"). */
  label: string
  defaultValue?: string
  isInvalid?: boolean
  describedBy?: string
}

/** What the pattern lets through before the server checks the day itself: mm/dd/yyyy, mm/dd/yy or YYYY-MM-DD. */
const DATE_PATTERN = String.raw`\d{1,2}/\d{1,2}/(\d{2}|\d{4})|\d{4}-\d{2}-\d{2}`

/**
 * A date field that reads and writes mm/dd/yyyy (SEED.md §2) whatever the browser's locale, unlike `<input type=date>`
 * whose display follows the browser. A plain text field, so it works with scripts off; with scripts on a calendar
 * (English, weeks starting on Sunday) fills it in.
 */
export function DateInput({ id, name, label, defaultValue = '', isInvalid, describedBy }: DateInputProps) {
  const input = useRef<HTMLInputElement>(null)
  const isHydrated = useHydrated()
  const [picked, setPicked] = useState<CalendarDate | null>(null)
  const hintId = `${id}-format`
  const calendarValue = () => {
    const day = parseFilterDate(input.current?.value ?? '')
    if (!day) return picked
    const [year, month, date] = day.split('-').map(Number)
    return new CalendarDate(year, month, date)
  }
  return (
    <span className={styles.dateField}>
      <input
        ref={input}
        id={id}
        name={name}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder="mm/dd/yyyy"
        pattern={DATE_PATTERN}
        title="A date as mm/dd/yyyy"
        defaultValue={displayFilterDate(defaultValue)}
        className={styles.control}
        aria-invalid={isInvalid || undefined}
        aria-describedby={[hintId, describedBy].filter(Boolean).join(' ')}
      />
      <span id={hintId} className="visually-hidden">
        Format mm/dd/yyyy
      </span>
      {isHydrated ? (
        <I18nProvider locale="en-US">
          <DialogTrigger>
            <AriaButton className={styles.calendarButton} aria-label={`Choose ${label} date`}>
              <span aria-hidden="true">▦</span>
            </AriaButton>
            <Popover className={styles.calendarPopover} placement="bottom end">
              <Dialog aria-label={`${label} calendar`} className={styles.calendarDialog}>
                {({ close }) => (
                  <Calendar
                    firstDayOfWeek="sun"
                    defaultValue={calendarValue()}
                    onChange={(value) => {
                      setPicked(value)
                      if (input.current) input.current.value = formatFilterDate(value.toString())
                      close()
                      input.current?.focus()
                    }}
                  >
                    <header className={styles.calendarHeader}>
                      <AriaButton slot="previous" aria-label="Previous month">
                        ‹
                      </AriaButton>
                      <Heading className={styles.calendarHeading} />
                      <AriaButton slot="next" aria-label="Next month">
                        ›
                      </AriaButton>
                    </header>
                    <CalendarGrid className={styles.calendarGrid} weekdayStyle="short">
                      <CalendarGridHeader>{(day) => <CalendarHeaderCell>{day}</CalendarHeaderCell>}</CalendarGridHeader>
                      <CalendarGridBody>{(date) => <CalendarCell date={date} className={styles.calendarCell} />}</CalendarGridBody>
                    </CalendarGrid>
                  </Calendar>
                )}
              </Dialog>
            </Popover>
          </DialogTrigger>
        </I18nProvider>
      ) : null}
    </span>
  )
}
