/**
 * Splits a generator into what it yields and what it returns: `items` to iterate once, and `result`, which settles
 * when the iteration ends: the returned value, the thrown error, or a rejection when the reader leaves early.
 */
export function splitGenerator<T, R>(generator: AsyncGenerator<T, R, undefined>, what = 'stream'): { items: AsyncIterable<T>; result: Promise<R> } {
  let settle!: { resolve: (value: R) => void; reject: (error: unknown) => void }
  const result = new Promise<R>((resolve, reject) => {
    settle = { resolve, reject }
  })
  // The failure also reaches whoever iterates; a reader that only iterates must not cause an unhandled rejection.
  result.catch(() => undefined)
  let isStarted = false
  const items: AsyncIterable<T> = {
    [Symbol.asyncIterator]() {
      if (isStarted) throw new Error(`A ${what} can be read only once`)
      isStarted = true
      let isSettled = false
      return {
        async next(): Promise<IteratorResult<T, undefined>> {
          try {
            const step = await generator.next()
            if (step.done) {
              isSettled = true
              settle.resolve(step.value)
              return { done: true, value: undefined }
            }
            return step
          } catch (error) {
            isSettled = true
            settle.reject(error)
            throw error
          }
        },
        async return(): Promise<IteratorResult<T, undefined>> {
          if (!isSettled) {
            isSettled = true
            settle.reject(new Error(`The ${what} was left before its end`))
            // Runs the generator's finally blocks (a model stream is aborted there).
            await generator.return(undefined as R)
          }
          return { done: true, value: undefined }
        },
      }
    },
  }
  return { items, result }
}
