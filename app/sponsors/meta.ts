import type { MetaDescriptor } from '@remix-run/node'
import { PRODUCT_NAME } from './product'

interface MatchWithData {
  id: string
  data?: unknown
}

/** The sponsor's page title, read from the root route's data (the product's name when it is missing). */
export function siteTitle(matches: readonly MatchWithData[]): string {
  const root = matches.find((match) => match.id === 'root')?.data as { sponsor?: { title?: string } } | undefined
  return root?.sponsor?.title ?? PRODUCT_NAME
}

/**
 * A screen's <title> under the sponsor's title, e.g. `Ask · Library Answers`. Remix lets the deepest route's meta
 * replace the root's, so screens with a meta export use this: `export const meta: MetaFunction = ({ matches }) => screenMeta(matches, 'Ask')`.
 */
export function screenMeta(matches: readonly MatchWithData[], screen?: string): MetaDescriptor[] {
  const site = siteTitle(matches)
  return [{ title: screen ? `${screen} · ${site}` : site }]
}
