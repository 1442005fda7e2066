/**
 * The one registration loop over the route table (table.ts). Routes are grouped by how their
 * bodies are read, each group in its own fastify context:
 *
 * - /v1 reads any body as JSON (a body that is not JSON is a 400, whatever its content type);
 * - /v2 keeps the body as text and reads it after the token check (routes/read.ts), so that a
 *   malformed body is a 422 like every other bad request; its replies are compressed unless a
 *   route sends bytes already coded (`options.compress: false`).
 *
 * For each entry: the token check and the rate limit before the body is read (`guard`), then the
 * request read and checked against its shape (one 422 format), then the handler.
 */
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { AccessTokenVerifier } from '../auth/access-token.js';
import { requireAccessToken } from '../auth/require-access-token.js';
import { limitOrThrow } from '../content/rate-limit.js';
import { badRequest, tooManyRequests } from '../errors.js';
import { contentOf, type RouteContext } from './context.js';
import type { RouteEntry } from './route.js';
import { validated } from './validate.js';

export async function registerRoutes(app: FastifyInstance, entries: readonly RouteEntry[], ctx: RouteContext, verifier: AccessTokenVerifier): Promise<void> {
  const served = entries.filter((e) => e.part === 'always' || (e.part === 'auth' ? ctx.auth !== undefined : ctx.content !== undefined));
  const v2 = served.filter((e) => e.path.startsWith('/v2/'));
  const rest = served.filter((e) => !e.path.startsWith('/v2/'));
  await app.register(async (scope) => {
    acceptAnyContentTypeAsJson(scope);
    for (const entry of rest) add(scope, entry, ctx, verifier);
  });
  if (v2.length === 0) return;
  await app.register(async (scope) => {
    await scope.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, text, done) => done(null, text));
    for (const entry of v2) add(scope, entry, ctx, verifier);
  });
}

function add(app: FastifyInstance, entry: RouteEntry, ctx: RouteContext, verifier: AccessTokenVerifier): void {
  const options: RouteShorthandOptions = { ...entry.options };
  const bodyLimit = entry.bodyLimit?.(ctx);
  if (bodyLimit !== undefined) {
    options.bodyLimit = bodyLimit.bytes;
    options.config = { bodyTooLarge: bodyLimit.message };
  }
  if (entry.guard !== undefined) options.onRequest = [requireAccessToken(verifier), limiter(entry.guard.limit, ctx)];
  const { request: shape, read, whole } = entry;
  app.route({
    ...options,
    method: entry.method,
    url: entry.path,
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const input = shape === undefined ? undefined : validated(shape, read === undefined ? request.body : read(request), whole);
      return entry.handler(input, request, reply, ctx);
    },
  });
}

/** The rate limit of a guarded route, per caller (the token's subject). */
function limiter(kind: 'content' | 'parse', ctx: RouteContext) {
  return async (request: FastifyRequest): Promise<void> => {
    const key = request.accessClaims?.sub ?? request.ip;
    const content = contentOf(ctx);
    if (kind === 'content') return limitOrThrow(content.limiter, ctx.metrics, key);
    const wait = await content.parseLimiter.take(key);
    if (wait > 0) throw tooManyRequests(`rate limit exceeded for parsing; retry in ${wait} s`, wait);
  };
}

/**
 * The /v1 endpoints speak JSON only; a body sent with another (or no) content type is still read
 * as JSON, so that any non-JSON body gets the same 400 instead of a 415.
 */
function acceptAnyContentTypeAsJson(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, text, done) => {
    try {
      done(null, JSON.parse(text as string));
    } catch {
      done(badRequest('request body is not valid JSON'), undefined);
    }
  });
}
