// Local only (not committed): specs of tests/e2e-auth against an already running product.
import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from './tests/browser'
export default defineConfig({ testDir: 'tests/e2e-auth', timeout: 600_000, workers: 1, use: { launchOptions: chromiumLaunchOptions }, projects: [{ name: 'auth-js' }] })
