/**
 * The shape every metadata endpoint shares (/v2/projects, /v2/codes, /v2/languages,
 * /v2/namespaces, the structured snapshot list): GET and POST of a list, with `filters` on any
 * field of the model and `fields`; GET and POST of one item by identifier, with `fields`. One
 * call makes the four entries of a folder.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { valuesAt } from '../../content/enterprise/model-fields.js';
import { itemRequestSchema, listRequestSchema, type ItemRequest, type ListRequest } from '../../content/enterprise/model-request.js';
import { compileSelection, selectValue } from '../../content/fields.js';
import { HttpError } from '../../errors.js';
import { contentOf, type ContentContext } from '../context.js';
import { lookupRoute, type Method, type RouteEntry } from '../route.js';
import { body, cached, enterpriseErrors, fieldsParameter, ifNoneMatch, listFiltersParameter, message, modelOrSparse, notModified } from './docs.js';
import { sendJson, weakEtagOf } from './http.js';

export interface Listing<T> {
  /** The path of the list; the item is `${path}/:<itemParameter>`. */
  path: string;
  /** The item's path parameter; default `identifier` (a list under an item, such as a snapshot's chunks, names its own). */
  itemParameter?: string;
  model: z.ZodType;
  /** The model's name in messages ("Project") and its OpenAPI component (`Enterprise<label>`). */
  label: string;
  /** Every item; `params`: the path's parameters (a list under an item names it); undefined: a 404 with `missing`'s message for that item. */
  list(content: ContentContext, params: Record<string, string>): Promise<T[] | undefined>;
  /** One item; undefined (a 404 with `missing`'s message) when there is none. */
  item(content: ContentContext, identifier: string, params: Record<string, string>): Promise<T | undefined>;
  missing(identifier: string): string;
  /** A list under an item whose item does not exist (`list` gave undefined): the 404's message. */
  missingList?(params: Record<string, string>): string;
  docs: { summary: string; filterExample: string; identifier: string; identifierType?: 'string' | 'integer'; /** The path parameter of a list under an item. */ outer?: string };
}

/** Whether `item` has every filter's value at the filter's path (a path through an array: at any element). */
export function matchesFilters(item: unknown, filters: ListRequest['filters']): boolean {
  return (filters ?? []).every((filter) => valuesAt(item, filter.field.split('.')).some((value) => String(value) === String(filter.value)));
}

export function listingRoutes<T>(listing: Listing<T>): RouteEntry[] {
  const listSchema = listRequestSchema(listing.model, listing.label);
  const itemSchema = itemRequestSchema(listing.model, listing.label);
  const narrow = (fields: string[] | undefined) => {
    const selection = fields === undefined ? undefined : compileSelection(fields, listing.model, listing.label);
    return (value: T): unknown => (selection === undefined ? value : selectValue(value, selection));
  };
  const send = (request: FastifyRequest, reply: FastifyReply, content: ContentContext, value: unknown) => {
    const text = JSON.stringify(value);
    return sendJson(request, reply, content.cacheControl, weakEtagOf([text]), text);
  };
  const { summary, filterExample } = listing.docs;
  const lower = listing.label.toLowerCase();
  const model = `Enterprise${listing.label}`;
  const itemParameter = listing.itemParameter ?? 'identifier';
  const idParameter = { name: itemParameter, in: 'path', required: true, description: listing.docs.identifier, schema: { type: listing.docs.identifierType ?? 'string' } };
  const outerParameters = [...listing.path.matchAll(/:(\w+)/g)].map(([, name]) => ({ name, in: 'path', required: true, description: listing.docs.outer ?? name, schema: { type: 'string' } }));
  const listReply = {
    '200': { description: `${summary}, filtered; with \`fields\` only those fields`, headers: cached, content: { 'application/json': { schema: { type: 'array', items: modelOrSparse(model) } } } },
    ...notModified,
  };
  const itemReply = {
    '200': { description: `One ${lower}; with \`fields\` only those fields`, headers: cached, content: { 'application/json': { schema: modelOrSparse(model) } } },
    ...notModified,
  };

  const list = (method: Method, openapi: Record<string, unknown>): RouteEntry =>
    lookupRoute<ListRequest>({
      method,
      path: listing.path,
      summary: method === 'GET' ? summary : `${summary} (options in the JSON body)`,
      request: listSchema,
      errors: enterpriseErrors,
      openapi: { ...openapi, responses: listReply },
      handler: async (asked, request, reply, ctx) => {
        const content = contentOf(ctx);
        const pick = narrow(asked.fields);
        const params = request.params as Record<string, string>;
        const all = await listing.list(content, params);
        if (all === undefined) throw new HttpError(404, listing.missingList?.(params) ?? `no such ${lower} list`);
        const items = all.filter((item) => matchesFilters(item, asked.filters));
        return send(request, reply, content, items.map(pick));
      },
    });
  const one = (method: Method, openapi: Record<string, unknown>): RouteEntry =>
    lookupRoute<ItemRequest>({
      method,
      path: `${listing.path}/:${itemParameter}`,
      summary: method === 'GET' ? `One ${lower}` : `One ${lower} (options in the JSON body)`,
      request: itemSchema,
      errors: { '404': message(`no such ${lower}`), ...enterpriseErrors },
      openapi: { ...openapi, responses: itemReply },
      handler: async (asked, request, reply, ctx) => {
        const content = contentOf(ctx);
        const params = request.params as Record<string, string>;
        const identifier = params[itemParameter]!;
        const found = await listing.item(content, identifier, params);
        if (found === undefined) throw new HttpError(404, listing.missing(identifier));
        return send(request, reply, content, narrow(asked.fields)(found));
      },
    });
  return [
    list('GET', { parameters: [...outerParameters, fieldsParameter(), listFiltersParameter(filterExample), ifNoneMatch] }),
    list('POST', { parameters: [...outerParameters, ifNoneMatch], requestBody: body('ListRequest') }),
    one('GET', { parameters: [...outerParameters, idParameter, fieldsParameter(), ifNoneMatch] }),
    one('POST', { parameters: [...outerParameters, idParameter, ifNoneMatch], requestBody: body('ItemRequest') }),
  ];
}
