// Local only (not committed): the auth config with patient web server start-up on a loaded machine.
import base from './playwright.auth.config'
const servers = Array.isArray(base.webServer) ? base.webServer : [base.webServer!]
export default { ...base, webServer: servers.map((server) => ({ ...server, timeout: 480_000 })) }
