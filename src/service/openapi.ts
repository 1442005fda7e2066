import { z } from 'zod';
import type { Operation } from './auth/routes.js';
import { Jwks, Message } from './auth/schemas.js';

/** OpenAPI 3.1 (whose schemas are JSON Schema 2020-12, what zod emits) for the routes mounted. */
export function openApiDocument(prefix: string, operations: readonly Operation[]): Record<string, unknown> {
  const schema = (s: z.ZodType, io: 'input' | 'output') => {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
    return rest;
  };
  const json = (s: z.ZodType, io: 'input' | 'output') => ({ content: { 'application/json': { schema: schema(s, io) } } });
  const paths: Record<string, unknown> = {};
  for (const op of operations) {
    const responses: Record<string, unknown> = { '200': { description: 'success', ...json(op.reply, 'output') } };
    for (const status of [...op.errors, 500]) {
      responses[String(status)] = { description: `error (status ${status})`, ...json(Message, 'output') };
    }
    paths[`${prefix}${op.path}`] = {
      post: { summary: op.summary, requestBody: { required: true, ...json(op.request, 'input') }, responses },
    };
  }
  paths[`${prefix}/.well-known/jwks.json`] = {
    get: { summary: 'Public keys that verify access and id tokens', responses: { '200': { description: 'JWKS', ...json(Jwks, 'output') } } },
  };
  paths['/healthz'] = { get: { summary: 'Liveness and database check', responses: { '200': { description: 'ok' } } } };
  return {
    openapi: '3.1.0',
    info: { title: 'wikistruct authentication service', version: '1' },
    paths,
  };
}
