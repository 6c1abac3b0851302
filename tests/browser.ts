// How the end-to-end suites drive a browser: Debian's Chromium (README: the test command installs it when missing),
// never a downloaded one, with the flags this machine and CI need. Shared by playwright.config.ts and
// playwright.auth.config.ts.
import type { LaunchOptions } from '@playwright/test'

export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
}

/** Every spec runs twice: with JavaScript and without it. */
export function scriptModes(prefix = '') {
  return [
    { name: `${prefix}js`, use: { javaScriptEnabled: true } },
    { name: `${prefix}no-js`, use: { javaScriptEnabled: false } },
  ]
}
