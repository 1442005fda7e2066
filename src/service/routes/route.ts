/**
 * One HTTP route of the service as data: method, path, the zod shapes of its request and reply,
 * the errors it answers, its OpenAPI text and its handler. Every /v1 and /v2 route is one such
 * entry, in a folder that follows its URL (`routes/v2/articles/…`); `routes/table.ts` lists them,
 * registers them with one loop and writes /v1/openapi.json and /v2/openapi.json from the same
 * entries, so a route and its documentation cannot drift apart.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RouteContext } from './context.js';
import { bodyOrQuery } from './read.js';

export type Method = 'GET' | 'POST' | 'HEAD';

/** An OpenAPI response object (description, headers, content). */
export type ResponseDoc = Record<string, unknown>;

export interface RouteEntry<Req = unknown> {
  method: Method;
  /** The full path in fastify's form: `/v2/articles/:name`. */
  path: string;
  summary: string;
  /**
   * The part of the service the route belongs to; it is served where that part is: `auth` (/v1),
   * `content` (/v2), `always` (health).
   */
  part: 'auth' | 'content' | 'always';
  /** For `always` routes: the OpenAPI documents that describe them (a /v1 or /v2 route is in its own). */
  documentedIn?: readonly ('v1' | 'v2')[];
  /** Left out of the OpenAPI documents (the documents themselves). */
  undocumented?: true;
  /**
   * The request's shape: what `read` returns is validated against it (routes/validate.ts, one 422
   * format) before the handler runs, and it is the request's schema in the OpenAPI document.
   */
  request?: z.ZodType<Req>;
  /** The raw request value to validate: the JSON body, the query in the /v2 encoding (read.ts). */
  read?: (request: FastifyRequest) => unknown;
  /** The 422 message for a request that is not an object at all. */
  whole?: string;
  /** The reply's shape, for routes whose OpenAPI reply is generated from it (/v1). */
  reply?: z.ZodType;
  /**
   * The statuses other than 2xx: a list (each a Message, described by its status) or the
   * OpenAPI responses themselves, with their descriptions and headers.
   */
  errors: readonly number[] | Readonly<Record<string, ResponseDoc>>;
  /**
   * OpenAPI operation members beyond summary, request and errors: parameters, the success
   * responses, a request body by component; or `replyDescription`, what the reply generated from
   * `reply` is (default "success").
   */
  openapi?: Record<string, unknown>;
  /** An access token is required; checked, with the rate limit, before the body is read. */
  guard?: { limit: 'content' | 'parse' };
  /** Fastify route options: no compression (the bytes are already coded), no automatic HEAD. */
  options?: { compress?: false; exposeHeadRoute?: false };
  /** A body limit of its own, and the 413 message that names it (settings decide it: a function of the context). */
  bodyLimit?: (ctx: RouteContext) => { bytes: number; message: string };
  handler(input: Req, request: FastifyRequest, reply: FastifyReply, ctx: RouteContext): Promise<unknown>;
}

/**
 * A /v2 lookup of the content API: behind the token and the /v2 rate limit, its request read from
 * the body of a POST or the query of a GET (the same shape either way).
 */
export function lookupRoute<Req>(entry: Omit<RouteEntry<Req>, 'part' | 'guard' | 'read'>): RouteEntry {
  return route<Req>({ ...entry, part: 'content', guard: { limit: 'content' }, read: bodyOrQuery(entry.method) });
}

/** An entry, typed by its request shape. */
export function route<Req>(entry: RouteEntry<Req>): RouteEntry {
  return entry as unknown as RouteEntry;
}
