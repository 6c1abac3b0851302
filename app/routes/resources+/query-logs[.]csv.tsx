import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { downloadCsv, reportCsvDownload } from '~/components/logs/csv-download.server'

/** GET /resources/query-logs.csv: query_logs.csv streamed from the backend when it is text/csv (SEED.md §5). */
export const loader = ({ request }: LoaderFunctionArgs) => downloadCsv(request, 'query-logs')

/** POST: a scripted download reports its outcome, for the toast 'Query logs file downloaded' (4 s) or the error. */
export const action = ({ request }: ActionFunctionArgs) => reportCsvDownload(request, 'Query logs file downloaded')
