/**
 * Where a route's request comes from, before its shape is checked (routes/validate.ts):
 *
 * - /v1: the JSON body, read by the /v1 body parser (any content type; not JSON is a 400);
 * - /v2 POST: the JSON body, read here from its text (empty: no options; not JSON is a 422 like
 *   every other bad request); a query string there is refused, not silently ignored;
 * - /v2 GET: the query string, in the encoding of content/query.ts (`fields=a,b`, `filters=f:v`).
 */
import type { FastifyRequest } from 'fastify';
import { badRequest, unprocessable } from '../errors.js';
import { requestOfQuery, type RawQuery } from '../content/query.js';

/** /v1: the parsed JSON body. */
export function jsonBody(request: FastifyRequest): unknown {
  if (request.body === undefined) throw badRequest('request body is not valid JSON');
  return request.body;
}

/** /v2 POST: the JSON body's value (empty: `{}`). */
export function postBody(request: FastifyRequest): unknown {
  const [name] = Object.keys(request.query as RawQuery);
  if (name !== undefined) throw unprocessable(`${name}: query parameters are read on GET only; a POST sends them in its JSON body`);
  return jsonText(request.body, {});
}

/** /v2 GET: the request body equivalent of the query string. */
export function getQuery(request: FastifyRequest): unknown {
  return requestOfQuery(request.query as RawQuery);
}

/** Where a /v2 lookup's request comes from: the body of a POST, the query of a GET. */
export function bodyOrQuery(method: string): (request: FastifyRequest) => unknown {
  return method === 'POST' ? postBody : getQuery;
}

/** The JSON in a body's text; `empty` for a blank one. */
export function jsonText(text: unknown, empty: unknown): unknown {
  if (typeof text !== 'string' || text.trim() === '') return empty;
  try {
    return JSON.parse(text);
  } catch {
    throw unprocessable('request body is not valid JSON');
  }
}

/** A path segment as sent, still percent-encoded (the title rules decode it exactly once): the rest of the path after `marker`. */
export function rawSegment(request: FastifyRequest, marker: string): string {
  const path = request.url.split('?')[0] ?? '';
  return path.slice(path.lastIndexOf(marker) + marker.length);
}
