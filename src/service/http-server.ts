/**
 * The HTTP server as the service runs it, before any route: its limits and timeouts, and the
 * replies it makes itself — a request head Node or the router refuses, a missing Host, an unknown
 * path (404) or method (405, with `Allow`), any error (`{message, status}`, a 500 without
 * details) — and graceful closing. app.ts adds the routes (routes/table.ts).
 */
import { randomUUID } from 'node:crypto';
import { maxHeaderSize } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { AllowedMethods } from './allowed-methods.js';
import { clientErrorHandler, refuseConnect, refuseExpectation, refuseRequestHead } from './client-errors.js';
import { HttpError } from './errors.js';
import type { HttpTimeouts } from './timeouts.js';

/** Bodies of every route but those with a limit of their own (/v2/parse). */
export const BODY_LIMIT_BYTES = 16 * 1024;
/**
 * The longest path parameter (the /v2 title, still percent-encoded). A MediaWiki title is at most
 * 255 bytes of UTF-8, 765 characters with every byte escaped; fastify's default of 100 refused
 * legal titles. Longer ones still reach the title rules, which name the 255-byte limit.
 */
export const MAX_PARAM_CHARS = 1024;
/** Longest path shown in a 404/405 message. */
const SHOWN_PATH_CHARS = 200;

export function createHttpServer(logger: FastifyBaseLogger, timeouts: HttpTimeouts, trustProxy: boolean | readonly string[]): FastifyInstance {
  const fastify = Fastify({
    loggerInstance: logger,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    requestIdHeader: false, // ids are ours: a client-chosen id could forge log lines
    // Fastify hands a list to proxy-addr: only those peers' X-Forwarded-For is believed.
    trustProxy: typeof trustProxy === 'boolean' ? trustProxy : [...trustProxy],
    return503OnClosing: false,
    // A trailing slash names the same resource: the Enterprise Python SDK lists structured
    // snapshots at `snapshots/structured-contents/`, and other clients write paths either way.
    routerOptions: { maxParamLength: MAX_PARAM_CHARS, ignoreTrailingSlash: true },
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    requestTimeout: timeouts.requestMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
      // Node would answer a missing Host with a bare 400; the onRequest hook below sends a Message.
      requireHostHeader: false,
    },
    // Requests Node's parser refuses never reach fastify: answered here with a Message.
    clientErrorHandler: clientErrorHandler(logger, maxHeaderSize),
    // Requests the router refuses (bad percent-escapes, an over-long title) likewise.
    frameworkErrors: (error, request, reply) => {
      const { status, message } = frameworkReply(error);
      request.log.info({ code: error.code, status }, 'request refused by the router');
      // fastify types this reply generically (any route's schema); it is a plain reply here.
      void (reply as unknown as FastifyReply).status(status).send({ message, status });
    },
  });
  // Every field is kept (Node drops those past 2,000 silently), so refuseRequestHead counts them all.
  fastify.server.maxHeadersCount = 0;
  fastify.server.on('connect', refuseConnect);
  fastify.server.on('checkExpectation', refuseExpectation);
  // Every route, for 405 replies that name the methods a path has (allowed-methods.ts).
  const routes = new AllowedMethods();
  fastify.addHook('onRoute', (route) => routes.add(route.method, route.url ?? route.path));
  // No route for this method and path: answered before the body is read, so a wrong method or
  // path is a 404/405, never "request body is not valid JSON".
  fastify.addHook('onRequest', async (request) => {
    const refused = refuseRequestHead(request.raw, maxHeaderSize);
    if (refused !== undefined) throw new HttpError(refused.status, refused.message, undefined, { connection: 'close' });
    // RFC 9112 §3.2: a server MUST answer 400 to an HTTP/1.1 request without Host.
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') throw new HttpError(400, 'the Host header is required in HTTP/1.1');
    if (!request.is404) return;
    const path = request.url.split('?')[0] ?? '';
    const shown = path.length > SHOWN_PATH_CHARS ? `${path.slice(0, SHOWN_PATH_CHARS)}…` : path;
    const allowed = routes.allowed(path);
    if (allowed.length === 0) throw new HttpError(404, `no route for ${request.method} ${shown}`);
    const allow = allowed.join(', ');
    throw new HttpError(405, `method ${request.method} is not allowed on ${shown}; allowed: ${allow}`, undefined, { allow });
  });
  // Graceful shutdown: a request that arrives on an open keep-alive connection while closing is
  // still served (as a normal reply, not fastify's bare 503), and every reply sent while closing
  // asks the client to close the connection, so close() need not wait out the keep-alive timeout.
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
  });
  fastify.setErrorHandler((error, request, reply) => {
    const { status, message } = toReply(error, request.routeOptions.config as { bodyTooLarge?: string });
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    if (error instanceof HttpError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      reply.headers(error.headers);
    }
    return reply.status(status).send({ message, status });
  });
  fastify.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ message: `no route for ${request.method} ${request.url.split('?')[0]}`, status: 404 }),
  );
  return fastify;
}

/** Messages for fastify's own client errors (body parsing), by code; other 4xx keep fastify's message. */
const FASTIFY_MESSAGES: Readonly<Record<string, string>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: `request body is larger than ${BODY_LIMIT_BYTES} bytes`,
  FST_ERR_CTP_INVALID_JSON_BODY: 'request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'request body is empty but Content-Type says application/json',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported Content-Type: send application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'request body size does not match Content-Length',
};

/**
 * The reply for an error: ours as they are, fastify's client errors by status, the rest a 500.
 * A route with a body limit of its own names it (`bodyTooLarge`, routes/route.ts).
 */
function toReply(error: unknown, route: { bodyTooLarge?: string } | undefined): { status: number; message: string } {
  if (error instanceof HttpError) return { status: error.status, message: error.message };
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' && route?.bodyTooLarge !== undefined) return { status: 413, message: route.bodyTooLarge };
  const status = (error as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const known = typeof code === 'string' ? FASTIFY_MESSAGES[code] : undefined;
    // The JSON parser's own SyntaxError (also prototype poisoning) carries no code.
    if (known === undefined && error instanceof SyntaxError) return { status, message: 'request body is not valid JSON' };
    return { status, message: known ?? (error as Error).message };
  }
  return { status: 500, message: 'internal server error' };
}

/** Errors of fastify's router (before any route or hook runs). */
function frameworkReply(error: FastifyError): { status: number; message: string } {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return { status: 400, message: 'malformed URL: a %-escape in the path is not valid (a "%" must start "%XX" encoding UTF-8)' };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { status: 414, message: `the title in the URL is longer than ${MAX_PARAM_CHARS} characters (MediaWiki titles are at most 255 bytes of UTF-8)` };
    default:
      return error.statusCode !== undefined && error.statusCode < 500
        ? { status: error.statusCode, message: error.message }
        : { status: 500, message: 'internal server error' };
  }
}
