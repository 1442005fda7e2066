/**
 * The shape every metadata endpoint shares (/v2/projects, /v2/codes, /v2/languages,
 * /v2/namespaces, the structured snapshot list): GET and POST of a list, with `filters` on any
 * field of the model and `fields`; GET and POST of one item by identifier, with `fields`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { HttpError } from '../../errors.js';
import { compileSelection, selectValue } from '../fields.js';
import type { RawQuery } from '../query.js';
import { fromGet, fromPost } from '../request.js';
import { rateLimit, sendJson, weakEtag, type EnterpriseRoutesOptions } from './http.js';
import { valuesAt } from './model-fields.js';
import { itemRequestSchema, listRequestSchema, type ItemRequest, type ListRequest } from './model-request.js';

export interface Listing<T> {
  /** The path of the list; the item is `${path}/:identifier`. */
  path: string;
  model: z.ZodType;
  /** The model's name in messages ("Project"). */
  label: string;
  list(): Promise<T[]>;
  /** One item; undefined (a 404 with `missing`'s message) when there is none. */
  item?(identifier: string): Promise<T | undefined>;
  missing?(identifier: string): string;
}

/** Whether `item` has every filter's value at the filter's path (a path through an array: at any element). */
export function matchesFilters(item: unknown, filters: ListRequest['filters']): boolean {
  return (filters ?? []).every((filter) => valuesAt(item, filter.field.split('.')).some((value) => String(value) === String(filter.value)));
}

export function registerListing<T>(app: FastifyInstance, options: EnterpriseRoutesOptions, listing: Listing<T>): void {
  const listSchema = listRequestSchema(listing.model, listing.label);
  const itemSchema = itemRequestSchema(listing.model, listing.label);
  const narrow = (fields: string[] | undefined) => {
    const selection = fields === undefined ? undefined : compileSelection(fields, listing.model, listing.label);
    return (value: T): unknown => (selection === undefined ? value : selectValue(value, selection));
  };
  const send = (request: FastifyRequest, reply: FastifyReply, value: unknown) => {
    const text = JSON.stringify(value);
    return sendJson(request, reply, options, weakEtag([text]), text);
  };

  const list = (read: (request: FastifyRequest) => ListRequest) => async (request: FastifyRequest, reply: FastifyReply) => {
    await rateLimit(options, request);
    const asked = read(request);
    const pick = narrow(asked.fields);
    const items = (await listing.list()).filter((item) => matchesFilters(item, asked.filters));
    return send(request, reply, items.map(pick));
  };
  const guard = { preHandler: options.authenticate };
  app.get(listing.path, guard, list((r) => fromGet(listSchema, r.query as RawQuery)));
  app.post(listing.path, guard, list((r) => fromPost(listSchema, r.body, r.query as RawQuery)));

  const find = listing.item;
  if (find === undefined) return;
  const one = (read: (request: FastifyRequest) => ItemRequest) => async (request: FastifyRequest, reply: FastifyReply) => {
    await rateLimit(options, request);
    const asked = read(request);
    const identifier = (request.params as { identifier: string }).identifier;
    const found = await find(identifier);
    if (found === undefined) throw new HttpError(404, listing.missing?.(identifier) ?? `no ${listing.label.toLowerCase()} "${identifier}"`);
    return send(request, reply, narrow(asked.fields)(found));
  };
  const itemPath = `${listing.path}/:identifier`;
  app.get(itemPath, guard, one((r) => fromGet(itemSchema, r.query as RawQuery)));
  app.post(itemPath, guard, one((r) => fromPost(itemSchema, r.body, r.query as RawQuery)));
}
