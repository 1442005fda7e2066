/**
 * GET /v2/structured-contents/{name}?… → the same request object a POST body carries, validated
 * by the same schema (so the same 422 messages). The encoding (docs/content-service.md):
 *
 *   limit=2                                   one integer
 *   fields=name&fields=version.identifier     repeated, or a comma list: fields=name,version.identifier
 *   filters=is_part_of.identifier:enwiki      field:value (split at the first colon), repeated or a
 *                                             comma list; or JSON text, a filter or an array of them:
 *   filters=[{"field":"is_part_of.identifier","value":"enwiki"}]
 *
 * A value with a comma, or one that starts with "[" or "{", needs the JSON form.
 */
import { unprocessable } from '../errors.js';

/** fastify's parsed query string: a repeated key is an array. */
export type RawQuery = Record<string, string | string[] | undefined>;

const PARAMETERS = new Set(['limit', 'fields', 'filters']);

/** The request body equivalent of a query; throws 422 naming the parameter for what cannot be read. */
export function requestOfQuery(query: RawQuery): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(query)) {
    if (raw === undefined) continue;
    if (!PARAMETERS.has(name)) throw unprocessable(`${name}: unexpected query parameter; expected one of ${[...PARAMETERS].join(', ')}`);
    const values = Array.isArray(raw) ? raw : [raw];
    if (name === 'limit') {
      if (values.length > 1) throw unprocessable('limit: given more than once');
      const text = values[0]!;
      // Anything but an integer literal stays a string, which the schema refuses with its message.
      request['limit'] = /^[+-]?\d{1,9}$/.test(text) ? Number(text) : text;
    } else if (name === 'fields') {
      request['fields'] = values.flatMap((v) => v.split(','));
    } else {
      request['filters'] = values.flatMap(filtersOf);
    }
  }
  return request;
}

function filtersOf(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw unprocessable('filters: not valid JSON (a filter object or an array of them)');
    }
    return Array.isArray(parsed) ? parsed : [parsed];
  }
  return text.split(',').map((pair) => {
    const colon = pair.indexOf(':');
    if (colon < 0) throw unprocessable(`filters: expected field:value or JSON, got ${JSON.stringify(pair)}`);
    return { field: pair.slice(0, colon), value: pair.slice(colon + 1) };
  });
}
