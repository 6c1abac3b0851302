import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose'
import { AppError } from '../../errors'

export interface OidcVerifierOptions {
  /** The provider's issuer, exactly as its ID tokens name it. */
  issuer: string
  /** The client id the ID tokens are issued to. */
  audience: string
  /** The provider's key set; found through discovery when not given. */
  jwksUri?: string
}

/** Signature algorithms the provider may use: asymmetric only, so the backend never needs the client secret. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519']
const DISCOVERY_TIMEOUT_MS = 10_000
/** Clocks of the provider and this server may differ a little. */
const CLOCK_TOLERANCE_SECONDS = 5

/** Verifies the provider's ID tokens: signature against its published keys, issuer, audience and expiry. */
export class OidcTokenVerifier {
  private keys: Promise<JWTVerifyGetKey> | undefined

  constructor(private readonly options: OidcVerifierOptions) {}

  get issuer(): string {
    return this.options.issuer
  }

  /** The verified claims; throws jose's errors for a token that fails any check. */
  async verify(token: string): Promise<JWTPayload & { sub: string }> {
    const keys = await this.keySet()
    const { payload } = await jwtVerify(token, keys, {
      issuer: this.options.issuer,
      audience: this.options.audience,
      algorithms: ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['sub', 'exp', 'iat'],
    })
    // A token issued to several audiences must name this client as its authorised party (OIDC Core 3.1.3.7).
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== this.options.audience) {
      throw new errors.JWTClaimValidationFailed('The ID token was issued to another party', payload, 'azp', 'check_failed')
    }
    return payload as JWTPayload & { sub: string }
  }

  /** The remote key set, found once through discovery; jose refetches it when the provider rotates its keys. */
  private keySet(): Promise<JWTVerifyGetKey> {
    this.keys ??= this.discoverKeySet().catch((error: unknown) => {
      this.keys = undefined // try discovery again on the next call
      throw error
    })
    return this.keys
  }

  private async discoverKeySet(): Promise<JWTVerifyGetKey> {
    let jwksUri = this.options.jwksUri
    if (!jwksUri) {
      const url = `${this.options.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`
      let metadata: { issuer?: unknown; jwks_uri?: unknown }
      try {
        const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) })
        if (!response.ok) throw new Error(`answered ${response.status}`)
        metadata = (await response.json()) as typeof metadata
      } catch (error) {
        throw new AppError(503, 'Service Unavailable', `The sign-in provider's configuration could not be read (${(error as Error).message})`)
      }
      if (metadata.issuer !== this.options.issuer) {
        throw new AppError(503, 'Service Unavailable', `The sign-in provider names itself "${String(metadata.issuer)}", not the configured OIDC_ISSUER`)
      }
      if (typeof metadata.jwks_uri !== 'string') throw new AppError(503, 'Service Unavailable', 'The sign-in provider publishes no jwks_uri')
      jwksUri = metadata.jwks_uri
    }
    return createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: DISCOVERY_TIMEOUT_MS, cooldownDuration: 30_000 })
  }
}
