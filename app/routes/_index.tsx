import { redirect } from '@remix-run/node'

/** The dashboard opens on Ask. */
export const loader = () => redirect('/ask')
