/** Polls `check` until it holds; fails after `attempts` tries (a bound on waiting, not a timed assertion). */
export async function eventually(check: () => Promise<boolean>, attempts = 400, pauseMs = 25): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, pauseMs))
  }
  throw new Error('the condition never held')
}
