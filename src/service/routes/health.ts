/**
 * GET /healthz (liveness and the database), GET /readyz (migrations applied), GET /metrics
 * (Prometheus): served by every process, whichever parts it serves; no token.
 */
import { z } from 'zod';
import { MIGRATIONS } from '../storage/migrations.js';
import { route, type RouteEntry } from './route.js';

export const healthRoutes: readonly RouteEntry[] = [
  route({
    method: 'GET',
    path: '/healthz',
    part: 'always',
    documentedIn: ['v1', 'v2'],
    summary: 'Liveness and database check',
    reply: z.strictObject({ status: z.literal('ok') }),
    errors: {},
    openapi: { replyDescription: 'ok' },
    handler: async (_input, _request, _reply, ctx) => {
      await ctx.db.query('SELECT 1');
      return { status: 'ok' };
    },
  }),
  route({
    method: 'GET',
    path: '/readyz',
    part: 'always',
    documentedIn: ['v2'],
    summary: 'Database reachable and migrations applied',
    errors: { '503': { description: 'not ready', content: { 'application/json': { schema: { $ref: '#/components/schemas/Message' } } } } },
    reply: z.strictObject({ status: z.literal('ready') }),
    openapi: { replyDescription: 'ready' },
    handler: async (_input, _request, reply, ctx) => {
      const applied = new Set((await ctx.db.query<{ id: string }>('SELECT id FROM schema_migrations')).map((r) => r.id));
      const missing = MIGRATIONS.filter((m) => !applied.has(m.id)).map((m) => m.id);
      if (missing.length > 0) return reply.status(503).send({ message: `migrations not applied: ${missing.join(', ')}`, status: 503 });
      return { status: 'ready' };
    },
  }),
  route({
    method: 'GET',
    path: '/metrics',
    part: 'always',
    documentedIn: ['v2'],
    summary: 'Prometheus metrics',
    errors: {},
    openapi: { responses: { '200': { description: 'text exposition format' } } },
    handler: async (_input, _request, reply, ctx) => {
      reply.type(ctx.metrics.registry.contentType);
      return ctx.metrics.registry.metrics();
    },
  }),
];
