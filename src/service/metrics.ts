/**
 * Prometheus metrics, one registry per app (so two apps in one process, as in tests, do not
 * collide). Route labels are route patterns, never raw URLs, to keep label cardinality bounded.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** Envelope → Article, by where the source came from. */
  parseDuration: Histogram<'source'>;
  /** Parsed-article cache lookups: hit or miss. */
  articleCache: Counter<'result'>;
  /** Fetches from live wikis by project (known ones only, else `other`: content/service.ts ProjectLabels) and outcome (ok, or the error code). */
  upstreamFetches: Counter<'project' | 'outcome'>;
  rateLimited: Counter;
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'wikistruct_' });
  return {
    registry,
    httpRequests: new Counter({
      name: 'wikistruct_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'wikistruct_http_request_duration_seconds',
      help: 'Time from request to response, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    parseDuration: new Histogram({
      name: 'wikistruct_parse_duration_seconds',
      help: 'Time to parse one article into Article JSON, by source (store, upstream)',
      labelNames: ['source'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    articleCache: new Counter({
      name: 'wikistruct_article_cache_total',
      help: 'Parsed-article cache lookups for stored articles, by result (hit, miss)',
      labelNames: ['result'],
      registers: [registry],
    }),
    upstreamFetches: new Counter({
      name: 'wikistruct_upstream_fetches_total',
      help: 'Article fetches from live wikis, by project (stored or answering ones; "other" for the rest) and outcome (ok or an error code)',
      labelNames: ['project', 'outcome'],
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: 'wikistruct_rate_limited_total',
      help: 'Content requests refused with 429',
      registers: [registry],
    }),
  };
}

/** Counts and times every response by route pattern (the registry is served at GET /metrics, routes/health.ts). */
export function observeRequests(fastify: FastifyInstance, metrics: Metrics): void {
  fastify.addHook('onResponse', async (request, reply) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
}
