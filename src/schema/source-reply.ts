/**
 * The reply of `GET /v2/source/{name}` (documented in /v2/openapi.json as `SourceReply`): declared
 * once for the service that sends it and the explorer page that reads it. Types only, so the
 * browser bundle takes nothing of the server with it.
 */
import type { Article } from './article.js';

export interface SourceReply {
  project: string;
  name: string;
  revision: number;
  format: 'html' | 'wikitext';
  /** The stored HTML (preferred) or wikitext. */
  source: string;
  /** The Article parsed again from `source`, with source hints when it is HTML. */
  article: Article;
}
