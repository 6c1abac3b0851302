import { LogStatusFilter } from '../../../contracts/query-logs'

/** The logs' status filter (PRODUCT.md), as the Logs screen's filter form names each status. */
export const LOG_STATUS_LABELS: Record<LogStatusFilter, string> = {
  all: 'All',
  liked: 'Liked',
  disliked: 'Disliked',
  'no feedback': 'No feedback',
  commented: 'Commented',
  'not found': 'No answer found',
  blocked: 'Blocked',
  failed: 'Failed',
}
type LogStatusFilter = (typeof LogStatusFilter.options)[number]
