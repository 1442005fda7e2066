import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../errors.js';
import type { AccessClaims, AccessTokenVerifier } from './access-token.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireAccessToken` on routes that use it. */
    accessClaims?: AccessClaims;
  }
}

/**
 * A preHandler for routes that accept only our access tokens (the content API): reads
 * `Authorization: Bearer <access token>`, verifies it (signature, expiry, revocation) and
 * exposes its claims as `request.accessClaims`. Failures become the usual Message replies.
 */
export function requireAccessToken(verifier: AccessTokenVerifier) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const header = request.headers.authorization;
    const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match?.[1] === undefined) throw unauthorized('an access token is required: Authorization: Bearer <access_token>');
    request.accessClaims = await verifier.verify(match[1]);
  };
}
