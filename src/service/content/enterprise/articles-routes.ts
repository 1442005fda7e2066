/**
 * GET|POST /v2/articles/{name}: the article in the Enterprise Article model (metadata and
 * `article_body`), one per matching project, with the filters, dot `fields` and `limit` of
 * structured contents. Found by ContentService exactly as structured contents are (store first,
 * then the live wiki), and sent with the same token check, rate limit, ETag and compression.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { compileSelection, selectValue } from '../fields.js';
import type { RawQuery } from '../query.js';
import { criteriaOf, fromGet, fromPost } from '../request.js';
import { enterpriseArticle } from './article-reply.js';
import { abortOnDisconnect, rateLimit, selectionId, sendJson, weakEtag, type EnterpriseRoutesOptions } from './http.js';
import { ArticleLookupRequest } from './model-request.js';
import { EnterpriseArticleModel } from './models.js';

/** Bump when the reply built from the same stored row changes (article-reply.ts): it is part of the ETag. */
const REPLY_VERSION = 'enterprise-article-1';

export const articlesRoutes: FastifyPluginAsync<EnterpriseRoutesOptions> = async (app, options) => {
  const serve = (read: (request: FastifyRequest) => ArticleLookupRequest) => async (request: FastifyRequest, reply: FastifyReply) => {
    await rateLimit(options, request);
    const asked = read(request);
    const selection = asked.fields === undefined ? undefined : compileSelection(asked.fields, EnterpriseArticleModel, 'Article');
    const abort = abortOnDisconnect(reply);
    const sources = await options.service.sources(rawName(request), criteriaOf(asked), abort.signal).finally(abort.done);
    const articles = sources.map(enterpriseArticle);
    const etag = weakEtag([REPLY_VERSION, selectionId(selection), ...sources.map((s) => `${s.project}:${s.title}:${s.revision}`)]);
    // Narrowed before serialising, so a reply without article_body never copies the HTML.
    const texts = articles.map((a) => JSON.stringify(selection === undefined ? a : selectValue(a, selection)));
    return sendJson(request, reply, options, etag, `[${texts.join(',')}]`);
  };
  const route = '/articles/:name';
  app.post(route, { preHandler: options.authenticate }, serve((request) => fromPost(ArticleLookupRequest, request.body, request.query as RawQuery)));
  app.get(route, { preHandler: options.authenticate }, serve((request) => fromGet(ArticleLookupRequest, request.query as RawQuery)));
};

/** The name segment as sent, still percent-encoded: normalizeTitle decodes it exactly once. */
function rawName(request: FastifyRequest): string {
  const path = request.url.split('?')[0] ?? '';
  const marker = '/articles/';
  return path.slice(path.indexOf(marker) + marker.length);
}
