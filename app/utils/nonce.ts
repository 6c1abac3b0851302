import { createContext, useContext } from 'react'

/**
 * The Content-Security-Policy nonce of the response being rendered (server only): Remix's inline scripts carry it.
 * In the browser there is none, and none is needed: the inline scripts have run by then.
 */
export const NonceContext = createContext<string | undefined>(undefined)

export const useNonce = () => useContext(NonceContext)
