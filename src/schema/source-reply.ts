/**
 * The reply of `GET /v2/source/{name}`, declared once for the service that sends it (its
 * /v2/openapi.json component `SourceReply`) and the explorer page that reads it (types only, so
 * the browser bundle takes nothing of the server with it).
 */
import { z } from 'zod';
import { ArticleSchema } from './article.js';

export const SourceReplySchema = z.strictObject({
  project: z.string(),
  name: z.string(),
  revision: z.number().int(),
  format: z.enum(['html', 'wikitext']),
  source: z.string().describe('The stored HTML (preferred) or wikitext'),
  article: ArticleSchema.describe('The Article parsed again from `source`, with source hints when it is HTML'),
});
export type SourceReply = z.infer<typeof SourceReplySchema>;
