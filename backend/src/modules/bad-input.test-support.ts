import type { Backend } from '../app'

/**
 * A digest of every table of the database but the request limits' counts (row count and an md5 of all rows), to
 * show that a refused request changed nothing. The tables are listed from the catalogue, so a table added later is
 * covered too.
 */
export async function databaseFingerprint(db: Backend['db']): Promise<string> {
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  )
  // The request limits' counts (ADR 310) count requests, refused ones too, whatever they carry: they are no stored data.
  const counts = new Set(['rate_limit_counts', 'sign_in_failures'])
  const parts: string[] = []
  for (const { table_name: table } of tables) {
    if (counts.has(table)) continue
    const [row] = await db.query<{ digest: string; count: number }>(
      `SELECT md5(COALESCE(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest, COUNT(*)::int AS count FROM "${table}" t`,
    )
    parts.push(`${table}:${row.count}:${row.digest}`)
  }
  return parts.join('\n')
}

/** The subset of JSON Schema the OpenAPI document of the routes uses. */
export interface JsonSchema {
  type?: string | string[]
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  enum?: unknown[]
  nullable?: boolean
  minLength?: number
  maxLength?: number
  pattern?: string
  minimum?: number
  maximum?: number
  exclusiveMinimum?: boolean | number
  exclusiveMaximum?: boolean | number
  items?: JsonSchema
  minItems?: number
  maxItems?: number
  properties?: Record<string, JsonSchema>
  required?: string[]
}

export interface RouteParameter {
  name: string
  schema: JsonSchema
}

/** What a route declares it takes: its path parameters, query parameters and JSON body. */
export interface RoutePlan {
  method: string
  url: string
  path: RouteParameter[]
  query: RouteParameter[]
  body: JsonSchema | undefined
  isMultipart: boolean
}

interface OpenApiOperation {
  parameters?: Array<{ in: string; name: string; schema?: JsonSchema }>
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
}

/** Every registered route with what its schemas declare, read from the backend's own OpenAPI document. */
export function routePlans(backend: Backend): RoutePlan[] {
  const document = (backend.app as unknown as { swagger(): { paths: Record<string, Record<string, OpenApiOperation>> } }).swagger()
  return backend.routes.map((route) => {
    const openApiPath = route.url.replace(/:([a-z_]+)/g, '{$1}')
    const operation = document.paths[openApiPath]?.[route.method.toLowerCase()] ?? {}
    const parameters = (where: string) =>
      (operation.parameters ?? []).filter((parameter) => parameter.in === where).map((parameter) => ({ name: parameter.name, schema: parameter.schema ?? {} }))
    const content = operation.requestBody?.content ?? {}
    return {
      method: route.method,
      url: route.url,
      path: parameters('path'),
      query: parameters('query'),
      body: content['application/json']?.schema,
      isMultipart: route.url === '/admin/upload_recovery',
    }
  })
}

const typesOf = (schema: JsonSchema): string[] | undefined => {
  if (schema.anyOf || schema.oneOf) {
    const branches = (schema.anyOf ?? schema.oneOf)!.map(typesOf)
    if (branches.some((types) => types === undefined)) return undefined
    return [...branches.flat(), ...(schema.nullable ? ['null'] : [])] as string[]
  }
  if (schema.type === undefined) return undefined
  return [...[schema.type].flat(), ...(schema.nullable ? ['null'] : [])]
}

/**
 * Whether the backend might accept this JSON value for the schema. Conservative: anything a coercing or
 * preprocessing schema could turn into a valid value counts as acceptable, so a value for which this answers
 * false is invalid for sure. `fromQuery` reads the value as a query or path parameter (always text, coerced).
 */
export function mayAccept(value: unknown, schema: JsonSchema, fromQuery = false): boolean {
  if (schema.anyOf || schema.oneOf) {
    if ((schema.anyOf ?? schema.oneOf)!.some((branch) => mayAccept(value, branch, fromQuery))) return true
    return value === null && schema.nullable === true
  }
  if (schema.enum && schema.type === undefined) return schema.enum.some((allowed) => String(allowed) === String(value))
  const types = typesOf(schema)
  if (!types) return true
  if (value === null) return types.includes('null') || fromQuery
  if (fromQuery && typeof value === 'string' && (types.includes('number') || types.includes('integer'))) {
    return numberFits(value.trim() === '' ? 0 : Number(value), schema, types)
  }
  if (schema.enum) return schema.enum.some((allowed) => allowed === value || String(allowed) === String(value))
  if (Array.isArray(value)) {
    if (!types.includes('array')) return false
    if (schema.minItems !== undefined && value.length < schema.minItems) return false
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return false
    return !schema.items || value.every((item) => mayAccept(item, schema.items!, fromQuery))
  }
  if (typeof value === 'object') {
    if (!types.includes('object')) return false
    if (schema.required?.some((key) => !(key in (value as object)))) return false
    return Object.entries(schema.properties ?? {}).every(([key, property]) => !(key in (value as object)) || mayAccept((value as Record<string, unknown>)[key], property, fromQuery))
  }
  if (typeof value === 'string') {
    // A number or boolean field may coerce text; only plainly textual fields are judged by their string rules.
    if (!types.includes('string')) return types.some((type) => ['number', 'integer', 'boolean'].includes(type))
    // Text may be trimmed before it is measured: judged by the raw length when too short, the trimmed when too long.
    if (schema.minLength !== undefined && value.length < schema.minLength) return false
    if (schema.maxLength !== undefined && value.trim().length > schema.maxLength) return false
    if (schema.pattern) {
      try {
        const pattern = new RegExp(schema.pattern, 'u')
        return pattern.test(value) || pattern.test(value.trim())
      } catch {
        return true
      }
    }
    return true
  }
  if (typeof value === 'number') {
    if (types.includes('string')) return true
    if (!types.includes('number') && !types.includes('integer')) return types.includes('boolean')
    return numberFits(value, schema, types)
  }
  if (typeof value === 'boolean') return types.includes('boolean') || types.includes('string') || types.includes('number') || types.includes('integer')
  return true
}

function numberFits(value: number, schema: JsonSchema, types: string[]): boolean {
  if (!Number.isFinite(value)) return false
  if (!types.includes('number') && !Number.isInteger(value)) return false
  if (schema.minimum !== undefined && (value < schema.minimum || (schema.exclusiveMinimum === true && value === schema.minimum))) return false
  if (schema.maximum !== undefined && (value > schema.maximum || (schema.exclusiveMaximum === true && value === schema.maximum))) return false
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) return false
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) return false
  return true
}
