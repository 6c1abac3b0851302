import { z } from 'zod'
import { KNOWLEDGE_LANGUAGES } from './retrieval/scripts'

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
  // Separate processes (docs/deployment.md): a running job's heartbeat, when a silent job is taken over, how often
  // the index looks for changes a lost notification did not announce, and where a worker answers /healthz.
  JOB_HEARTBEAT_MS: z.coerce.number().int().min(100).default(5000),
  JOB_STALE_MS: z.coerce.number().int().min(1000).default(20_000),
  INDEX_SYNC_MS: z.coerce.number().int().min(100).default(5000),
  WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  LOAD_DEMO_CONTENT: booleanString.default(true),
  // The language of the articles' words in the Latin alphabet (ISO 639-1): its stopwords and stemmer (ADR 269).
  KNOWLEDGE_LANGUAGE: z
    .string()
    .transform((value) => value.trim().toLowerCase())
    .refine((value) => KNOWLEDGE_LANGUAGES.includes(value), `KNOWLEDGE_LANGUAGE must be one of ${KNOWLEDGE_LANGUAGES.join(', ')}`)
    .default('en'),
  TOKEN_SECRET: z.string().min(32, 'TOKEN_SECRET must be at least 32 characters').optional(),
  TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(3600),
  ADMIN_USERNAME: z.string().min(1).default('admin'),
  ADMIN_EMAIL: z.string().email().default('admin@example.invalid'),
  ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters').optional(),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCK_SECONDS: z.coerce.number().int().min(1).default(900),
  // Sessions and throttling: a session's absolute lifetime, and per-address limits of sign-in and registration.
  SESSION_MAX_SECONDS: z.coerce.number().int().min(60).default(12 * 3600),
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  REGISTRATION_RATE_LIMIT: z.coerce.number().int().min(1).default(200),
  // Questions and agent runs a minute per account (each may cost a model call), whatever the address; 0: no limit.
  ASK_RATE_LIMIT: z.coerce.number().int().min(0).default(30),
  // Registration: off, open (into one organisation) or by invitation; off by default with single sign-on.
  REGISTRATION_POLICY: z.enum(['off', 'open', 'invite']).optional(),
  REGISTRATION_ORGANIZATION: z.string().min(1).optional(),
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
  MAX_UPLOAD_FILES: z.coerce.number().int().min(1).max(400).default(20),
  MAX_DECOMPRESSED_BYTES: z.coerce.number().int().positive().default(200 * 1024 * 1024),
  UPLOAD_WAIT_MS: z.coerce.number().int().min(0).default(10_000),
  CRAWL_MAX_PAGES: z.coerce.number().int().min(1).default(500),
  CRAWL_MAX_DEPTH: z.coerce.number().int().min(0).default(5),
  CRAWL_PAGE_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  CRAWL_MAX_PAGE_BYTES: z.coerce.number().int().positive().default(5 * 1024 * 1024),
  CRAWL_MAX_MINUTES: z.coerce.number().int().positive().default(120),
  YOUTUBE_TRANSCRIPT_BASE_URL: z.string().url().default('https://www.youtube.com'),
  BLOB_STORE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z.string().url().optional(),
  S3_FORCE_PATH_STYLE: booleanString.default(false),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PREFIX: z.string().default(''),
  // The language model: any OpenAI-compatible endpoint (its /v1 base); unset means extractive answers only.
  LLM_BASE_URL: z.string().url('LLM_BASE_URL must be a URL (the endpoint\'s /v1 base)').optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_API_VERSION: z.string().min(1).optional(),
  LLM_MODELS: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((model) => model.trim()).filter(Boolean)),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  EMBEDDINGS_BASE_URL: z.string().url('EMBEDDINGS_BASE_URL must be a URL (the endpoint\'s /v1 base)').optional(),
  EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  EMBEDDINGS_MODEL: z.string().min(1).optional(),
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
  if (parsed.data.JOB_STALE_MS < 2 * parsed.data.JOB_HEARTBEAT_MS) {
    throw new Error('Invalid backend configuration: JOB_STALE_MS: must be at least twice JOB_HEARTBEAT_MS, or live jobs would be taken over')
  }
  return parsed.data
}
