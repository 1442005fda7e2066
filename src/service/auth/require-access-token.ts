import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, unauthorized } from '../errors.js';
import type { AccessClaims, AccessTokenVerifier } from './access-token.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireAccessToken` on routes that use it. */
    accessClaims?: AccessClaims;
  }
}

/** The protection space of the access tokens (RFC 7235 §2.2); one for the whole service. */
export const REALM = 'wikistruct';

/**
 * A preHandler for routes that accept only our access tokens (the content API): reads
 * `Authorization: Bearer <access token>`, verifies it (signature, expiry, revocation) and
 * exposes its claims as `request.accessClaims`. Failures become the usual Message replies; a 401
 * carries the `WWW-Authenticate` challenge of RFC 6750 §3: without a token the bare challenge
 * (no error code: the client did not try), with a bad one `error="invalid_token"`.
 */
export function requireAccessToken(verifier: AccessTokenVerifier) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const header = request.headers.authorization;
    const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match?.[1] === undefined) {
      throw unauthorized('an access token is required: Authorization: Bearer <access_token>', { 'www-authenticate': `Bearer realm="${REALM}"` });
    }
    try {
      request.accessClaims = await verifier.verify(match[1]);
    } catch (error) {
      if (error instanceof HttpError && error.status === 401) {
        throw unauthorized(error.message, { 'www-authenticate': `Bearer realm="${REALM}", error="invalid_token"` });
      }
      throw error;
    }
  };
}
