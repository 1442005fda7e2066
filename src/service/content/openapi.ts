/**
 * OpenAPI 3.1 document of the content API. The Article schema is generated from the zod schemas
 * (the same source as grammar/article.schema.json); its $defs become components, so the recursive
 * Part stays one `$ref`-ed definition instead of an unrolled tree.
 */
import { z } from 'zod';
import { articleJsonSchema } from '../../schema/json-schema.js';
import { Message } from '../auth/schemas.js';
import { StructuredContentsRequest } from './request.js';

export function contentOpenApiDocument(): Record<string, unknown> {
  const article = articleJsonSchema();
  const defs = (article['$defs'] ?? {}) as Record<string, unknown>;
  const components = JSON.parse(JSON.stringify(defs).replaceAll('"#/$defs/', '"#/components/schemas/')) as Record<string, unknown>;
  const bare = (s: z.ZodType, io: 'input' | 'output') => {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
    return rest;
  };
  components['Message'] = bare(Message, 'output');
  components['StructuredContentsRequest'] = bare(StructuredContentsRequest, 'input');
  const message = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Message' } } },
  });
  return {
    openapi: '3.1.0',
    info: { title: 'wikistruct content API', version: '2' },
    components: {
      schemas: components,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'access token from POST /v1/login' } },
    },
    security: [{ bearer: [] }],
    paths: {
      '/v2/structured-contents/{article_name}': {
        post: {
          summary: 'Structured contents of one article in every matching project',
          parameters: [
            {
              name: 'article_name',
              in: 'path',
              required: true,
              description: 'Title in URL form (underscores for spaces, percent-encoded); normalised as MediaWiki does',
              schema: { type: 'string' },
            },
            { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
          ],
          requestBody: {
            required: false,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/StructuredContentsRequest' } } },
          },
          responses: {
            '200': {
              description: 'One Article per matching project (fields limited by `fields`)',
              headers: {
                ETag: { schema: { type: 'string' } },
                'Cache-Control': { schema: { type: 'string' } },
              },
              content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Article' } } } },
            },
            '304': { description: 'Not modified (If-None-Match matched the ETag)' },
            '400': message('invalid title'),
            '401': message('missing, malformed, expired or revoked access token'),
            '403': message('account disabled'),
            '404': message('no such article in the store or on the wiki'),
            '422': message('malformed body, unknown filter or field'),
            '429': message('rate limited (Retry-After)'),
            '502': message('the wiki is unreachable or failing'),
            '504': message('the wiki did not answer in time'),
          },
        },
      },
      '/healthz': { get: { summary: 'Liveness and database check', security: [], responses: { '200': { description: 'ok' } } } },
      '/readyz': { get: { summary: 'Database reachable and migrations applied', security: [], responses: { '200': { description: 'ready' }, '503': message('not ready') } } },
      '/metrics': { get: { summary: 'Prometheus metrics', security: [], responses: { '200': { description: 'text exposition format' } } } },
    },
  };
}
