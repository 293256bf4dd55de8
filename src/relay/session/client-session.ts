/**
 * Client sessions: the merchant's backend, which knows who is logged in, signs a short-lived token naming the
 * agreement; the relay accepts only what it signed (HS256 with `SESSION_SECRET`, checked with jose: signature,
 * algorithm, issuer, audience and expiry). Merchants call `createClientSession` from their own server code.
 */
import { SignJWT, jwtVerify } from 'jose';
import { RelayError } from '../http/errors.js';

export interface ClientSession {
  agreementId: number;
  clientId?: number;
}

const ISSUER = 'billing-pay-merchant';
const AUDIENCE = 'billing-pay-relay';
const ALGORITHM = 'HS256';
export const MIN_SECRET_BYTES = 32;
const MAX_TTL_SECONDS = 24 * 3600;

function key(secret: string): Uint8Array {
  const bytes = new TextEncoder().encode(secret);
  if (bytes.length < MIN_SECRET_BYTES) throw new Error(`SESSION_SECRET must be at least ${MIN_SECRET_BYTES} bytes`);
  return bytes;
}

/** Signs a session for one agreement, valid `ttlSeconds` (default 15 minutes, at most a day). */
export async function createClientSession(
  { agreementId, clientId, ttlSeconds = 900 }: ClientSession & { ttlSeconds?: number },
  secret: string = process.env.SESSION_SECRET ?? '',
): Promise<string> {
  if (!Number.isSafeInteger(agreementId) || agreementId <= 0) throw new Error('agreementId must be a positive integer');
  if (!(ttlSeconds > 0 && ttlSeconds <= MAX_TTL_SECONDS))
    throw new Error(`ttlSeconds must be within 1…${MAX_TTL_SECONDS}`);
  return new SignJWT({ agr: agreementId, ...(clientId !== undefined && { cli: clientId }) })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${Math.floor(ttlSeconds)}s`)
    .sign(key(secret));
}

/** Clocks of the signing backend and the relay may differ by this much (an `iat` this far ahead is still taken). */
const CLOCK_TOLERANCE_SECONDS = 5;

/**
 * The session a request carries in `Authorization: Bearer …`; any problem is a 401. Besides its signature and expiry,
 * a session must say when it was issued (`iat`): not in the future, and at most `maxAgeSeconds` ago (`SESSION_MAX_AGE_SECONDS`,
 * a day by default: the signer's own cap), so a session signed with a far expiry by a careless backend still ends.
 * `secrets` is the current key, then the previous one while it is rotated (`SESSION_SECRET_PREVIOUS`).
 */
export async function verifyClientSession(
  authorization: string | undefined,
  secrets: string | readonly string[],
  maxAgeSeconds = MAX_TTL_SECONDS,
): Promise<ClientSession> {
  const token = /^Bearer ([\w-]+\.[\w-]+\.[\w-]+)$/.exec(authorization ?? '')?.[1];
  if (!token)
    throw new RelayError('session_invalid', {
      message: 'A client session is required (Authorization: Bearer <session>).',
    });
  const keys = (typeof secrets === 'string' ? [secrets] : secrets).map(key);
  try {
    const { payload } = await verifyWithAny(token, keys, maxAgeSeconds);
    const agreementId = payload.agr;
    if (typeof agreementId !== 'number' || !Number.isSafeInteger(agreementId) || agreementId <= 0) {
      throw new Error('agr is not an agreement id');
    }
    return { agreementId, ...(typeof payload.cli === 'number' && { clientId: payload.cli }) };
  } catch (error) {
    const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
    const message = expired ? 'The client session has expired; reload the page.' : undefined;
    throw new RelayError('session_invalid', { message, cause: error });
  }
}

/** Checked with each key in turn; only a signature that does not match moves on to the next. */
async function verifyWithAny(token: string, keys: Uint8Array[], maxAgeSeconds: number) {
  for (const [index, secret] of keys.entries()) {
    try {
      return await jwtVerify(token, secret, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['exp', 'iat', 'agr'],
        maxTokenAge: maxAgeSeconds,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
    } catch (error) {
      const mismatch = (error as { code?: string }).code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED';
      if (!mismatch || index === keys.length - 1) throw error;
    }
  }
  throw new Error('no session key');
}
