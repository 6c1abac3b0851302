import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { downloadCsv, reportCsvDownload } from '~/components/logs/csv-download.server'

/** GET /resources/query-logs-dataset.csv: the dataset CSV (question, answer, sources, feedback, comments), checked as text/csv. */
export const loader = ({ request }: LoaderFunctionArgs) => downloadCsv(request, 'dataset')

/** POST: a scripted download reports its outcome, for the toast 'File downloaded.' (4 s) or the error. */
export const action = ({ request }: ActionFunctionArgs) => reportCsvDownload(request, 'File downloaded.')
