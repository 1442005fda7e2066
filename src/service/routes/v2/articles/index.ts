/**
 * GET|POST /v2/articles/{name}: the article in the Enterprise Article model (metadata and
 * `article_body`), one per matching project, with the filters, dot `fields` and `limit` of
 * structured contents. Found by ContentService exactly as structured contents are (store first,
 * then the live wiki), and sent with the same token check, rate limit, ETag and compression.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { enterpriseArticle } from '../../../content/enterprise/article-reply.js';
import { ArticleLookupRequest } from '../../../content/enterprise/model-request.js';
import { EnterpriseArticleModel } from '../../../content/enterprise/models.js';
import { ENGINE_VERSION } from '../../../content/engine-version.js';
import { compileSelection, selectValue } from '../../../content/fields.js';
import { criteriaOf } from '../../../content/request.js';
import { contentOf, type RouteContext } from '../../context.js';
import { rawSegment } from '../../read.js';
import { lookupRoute, type Method, type RouteEntry } from '../../route.js';
import { abortOnDisconnect, selectionId, sendJson, setAge, weakEtagOf } from '../http.js';
import { body, enterpriseErrors, fieldsParameter, ifNoneMatch, limitParameter, listFiltersParameter, lookupErrors, lookupReply } from '../docs.js';

/**
 * Bump when the reply built from the same stored row changes (article-reply.ts): it is part of
 * the ETag, with the engine version (categories and templates read from the HTML are the engine's).
 */
const REPLY_VERSION = 'enterprise-article-2';

const responses = lookupReply(
  'At most `limit` Articles in the Enterprise Article model (metadata and article_body), one per matching project, by project code; with `fields` only those fields',
  'EnterpriseArticle',
);
const errors = { ...lookupErrors('invalid title (named reason)', 'the name in the URL is longer than 1024 characters'), ...enterpriseErrors };
const nameParameter = { name: 'name', in: 'path', required: true, description: 'Title in URL form (underscores for spaces, percent-encoded)', schema: { type: 'string' } };

const entry = (method: Method, summary: string, openapi: Record<string, unknown>): RouteEntry =>
  lookupRoute<ArticleLookupRequest>({ method, path: '/v2/articles/:name', summary, request: ArticleLookupRequest, errors, openapi: { ...openapi, responses }, handler: serve });

export const articlesRoutes: readonly RouteEntry[] = [
  entry('GET', 'An article in the Enterprise Article model, in every matching project', {
    parameters: [nameParameter, limitParameter(), fieldsParameter(), listFiltersParameter('is_part_of.identifier:enwiki'), ifNoneMatch],
  }),
  entry('POST', 'The same as GET, with limit, fields and filters in the JSON body', { parameters: [nameParameter, ifNoneMatch], requestBody: body('ArticleLookupRequest') }),
];

async function serve(asked: ArticleLookupRequest, request: FastifyRequest, reply: FastifyReply, ctx: RouteContext): Promise<unknown> {
  const content = contentOf(ctx);
  const selection = asked.fields === undefined ? undefined : compileSelection(asked.fields, EnterpriseArticleModel, 'Article');
  const abort = abortOnDisconnect(reply);
  const sources = await content.service.sources(rawSegment(request, '/articles/'), criteriaOf(asked), abort.signal).finally(abort.done);
  // Categories and templates an envelope did not list are read from the HTML on a worker thread (once per revision).
  const articles = await Promise.all(sources.map(async (source) => enterpriseArticle(source, await content.service.pageLinks(source))));
  const etag = weakEtagOf([REPLY_VERSION, ENGINE_VERSION, selectionId(selection), ...sources.map((s) => `${s.project}:${s.title}:${s.revision}`)]);
  // Narrowed before serialising, so a reply without article_body never copies the HTML.
  const texts = articles.map((a) => JSON.stringify(selection === undefined ? a : selectValue(a, selection)));
  // As old as the oldest confirmation of its articles, as structured contents are (freshness.ts).
  const cacheControl = setAge(reply, sources, ctx.clock.now().getTime(), content.clientMaxAgeSeconds);
  return sendJson(request, reply, cacheControl, etag, `[${texts.join(',')}]`);
}
