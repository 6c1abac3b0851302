import { buildBackend } from '/work/main/backend/src/app'
import { loadConfig } from '/work/main/backend/src/config'
import { startOpenAiFixture } from '/work/main/tests/fixtures/openai-fixture'
const fixture = await startOpenAiFixture()
const config = loadConfig({ API_KEY: 'bench-api-key-0123456789', API_PORT: '0', DATABASE_URL: 'memory://', LOG_LEVEL: 'silent', LOAD_DEMO_CONTENT: 'true', ADMIN_PASSWORD: 'bench-admin-password', LLM_BASE_URL: fixture.baseUrl, LLM_MODELS: 'fixture-chat' })
const backend = await buildBackend(config, { demoDirectory: '/work/main/backend/src/demo/articles/' })
const baseUrl = await backend.app.listen({ host: '127.0.0.1', port: 0 })
const token = (await backend.services.identity.signIn('admin', 'bench-admin-password')).accessToken
const headers = { apikey: 'bench-api-key-0123456789', authorization: `Bearer ${token}`, 'content-type': 'application/json' }
for (let i = 0; i < 2; i++) { fixture.script('slow=100')
  const t0 = performance.now()
  const r = await fetch(`${baseUrl}/ask_qa_stream`, { method: 'POST', headers, body: JSON.stringify({ command: 'How do I publish drafts?' }) })
  const marks: string[] = [`headers ${(performance.now() - t0).toFixed(1)}`]
  let logId = 0
  for await (const b of r.body!) {
    const t = new TextDecoder().decode(b)
    for (const m of t.matchAll(/event: (\w+)/g)) marks.push(`${m[1]} ${(performance.now() - t0).toFixed(1)}`)
    const d = /"log_id":(\d+)/.exec(t); if (d) logId = Number(d[1])
  }
  const log = (await (await fetch(`${baseUrl}/query_logs/query_log?log_id=${logId}`, { headers })).json()).result[0]
  console.log(marks.join(' | '), '| first', log.llm_first_token_ms, 'total', log.llm_total_ms, 'dur', log.duration_ms)
}
await backend.close(); await fixture.close()
