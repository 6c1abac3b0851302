import { z } from 'zod'

const booleanString = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])])
  .transform((value) => value === true || value === 'true' || value === '1' || value === 'yes')

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  API_HOST: z.string().min(1).default('127.0.0.1'),
  API_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  API_KEY: z.string().min(8, 'API_KEY must be at least 8 characters'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?|memory):\/\//, 'DATABASE_URL must start with postgres://, postgresql:// or memory://')
    .optional(),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(2 * 1024 * 1024),
  ASK_WAIT_MS: z.coerce.number().int().min(0).default(8000),
  JOB_POLL_MS: z.coerce.number().int().positive().default(500),
  RUN_WORKER: booleanString.default(true),
  LOAD_DEMO_CONTENT: booleanString.default(true),
  TOKEN_SECRET: z.string().min(32, 'TOKEN_SECRET must be at least 32 characters').optional(),
  TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(3600),
  ADMIN_USERNAME: z.string().min(1).default('admin'),
  ADMIN_EMAIL: z.string().email().default('admin@example.invalid'),
  ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters').optional(),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCK_SECONDS: z.coerce.number().int().min(1).default(900),
  // Single sign-on (issue 6): the provider's ID tokens are accepted as bearer tokens when OIDC_ISSUER is set.
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_AUDIENCE: z.string().min(1).optional(),
  OIDC_JWKS_URI: z.string().url().optional(),
  OIDC_ORGANIZATION_CLAIM: z.string().min(1).default('organization'),
  OIDC_DEFAULT_ORGANIZATION: z.string().min(1).optional(),
  OIDC_ROLE_CLAIM: z.string().min(1).default('role'),
  OIDC_DEFAULT_ROLE: z.enum(['admin', 'editor', 'user']).default('user'),
  // Ingestion (issue 5): uploads, crawls, transcripts, and where originals are kept.
  ALLOW_PRIVATE_FETCH: booleanString.default(false),
  FETCH_ALLOW_HOSTS: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((host) => host.trim().toLowerCase()).filter(Boolean)),
  MAX_UPLOAD_BYTES: z.coerce.number().int().positive().default(25 * 1024 * 1024),
  MAX_UPLOAD_FILES: z.coerce.number().int().min(1).default(20),
  MAX_DECOMPRESSED_BYTES: z.coerce.number().int().positive().default(200 * 1024 * 1024),
  UPLOAD_WAIT_MS: z.coerce.number().int().min(0).default(10_000),
  CRAWL_MAX_PAGES: z.coerce.number().int().min(1).default(500),
  CRAWL_MAX_DEPTH: z.coerce.number().int().min(0).default(5),
  CRAWL_PAGE_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  CRAWL_MAX_PAGE_BYTES: z.coerce.number().int().positive().default(5 * 1024 * 1024),
  YOUTUBE_TRANSCRIPT_BASE_URL: z.string().url().default('https://www.youtube.com'),
  BLOB_STORE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z.string().url().optional(),
  S3_FORCE_PATH_STYLE: booleanString.default(false),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PREFIX: z.string().default(''),
  LLM_MODELS: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((model) => model.trim()).filter(Boolean)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
})

export type Config = z.infer<typeof ConfigSchema>

/** Reads and validates the backend's configuration; the only place that reads process.env. */
export function loadConfig(environment: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''))
  const parsed = ConfigSchema.safeParse(cleaned)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')
    throw new Error(`Invalid backend configuration: ${problems}`)
  }
  return parsed.data
}
