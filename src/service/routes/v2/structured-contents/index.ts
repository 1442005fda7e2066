/**
 * GET|POST /v2/structured-contents/{article_name}: the structured Article of a title in every
 * matching project (store first, then the live wiki), with filters, dot `fields` and `limit`.
 *
 * Articles are sent as the stored JSON text, never through a response schema: a schema would
 * re-serialise (slow for big Articles) and silently drop fields it does not declare inside the
 * recursive Part tree. The reply bytes themselves are kept per content and coding
 * (reply-cache.ts), so a popular article is joined and compressed once, not per request; these
 * routes therefore bypass @fastify/compress, which would compress every reply again.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ENGINE_VERSION } from '../../../content/engine-version.js';
import { compileSelection, selectFields, type Selection } from '../../../content/fields.js';
import { articleTag, negotiateEncoding } from '../../../content/reply-cache.js';
import { criteriaOf, DEFAULT_LIMIT, firstProjects, StructuredContentsRequest } from '../../../content/request.js';
import { ReplacedError, type Found } from '../../../content/service.js';
import { contentOf, type RouteContext } from '../../context.js';
import { rawSegment } from '../../read.js';
import { lookupRoute, type Method, type RouteEntry } from '../../route.js';
import { abortOnDisconnect, cacheHeaders, selectionTree, setAge, weakEtag } from '../http.js';
import { body, enterpriseErrors, fieldsParameter, filtersParameter, ifNoneMatch, limitParameter, lookupErrors, lookupReply, message, titleParameter, unauthorized } from '../docs.js';

const responses = lookupReply(
  'At most `limit` Articles, one per matching project, by project code. Each is a complete Article, or with `fields` only the fields asked for, nested as in the full Article.',
  'Article',
);
const errors = {
  ...lookupErrors('invalid title (named reason), e.g. longer than 255 bytes', 'the title in the URL is longer than 1024 characters'),
  ...enterpriseErrors,
  '401': unauthorized,
  '422': message('malformed body or query, unknown filter, field or parameter, limit out of range; or an article over a work limit of the engine, INPUT_TOO_COMPLEX (the message names it)'),
};
const queryParameters = [
  limitParameter(`At most this many Articles, one per project (default ${DEFAULT_LIMIT})`),
  fieldsParameter('Article fields in dot notation; repeat the parameter or give a comma list: `fields=name&fields=version.identifier` or `fields=name,version.identifier`'),
  filtersParameter(
    'Filters, AND-combined: `field:value` (split at the first colon; repeat or comma list), e.g. `filters=is_part_of.identifier:enwiki`; or JSON text, a filter or an array of them, e.g. `filters=[{"field":"in_language.identifier","value":"en"}]` (needed for a value with a comma)',
  ),
];

const entry = (method: Method, summary: string, openapi: Record<string, unknown>): RouteEntry =>
  lookupRoute<StructuredContentsRequest>({
    method,
    path: '/v2/structured-contents/:article_name',
    summary,
    request: StructuredContentsRequest,
    errors,
    openapi: { ...openapi, responses },
    // The bytes are already in the coding the client asked for (see above).
    options: { compress: false },
    handler: serve,
  });

export const structuredContentsRoutes: readonly RouteEntry[] = [
  entry('POST', 'Structured contents of one article in every matching project', { parameters: [titleParameter, ifNoneMatch], requestBody: body('StructuredContentsRequest') }),
  entry('GET', 'The same as POST, with limit, fields and filters in the query string', { parameters: [titleParameter, ...queryParameters, ifNoneMatch] }),
];

async function serve(asked: StructuredContentsRequest, request: FastifyRequest, reply: FastifyReply, ctx: RouteContext): Promise<unknown> {
  const selection = asked.fields === undefined ? undefined : compileSelection(asked.fields);
  // Once more if an article turned out replaced by another process since its title was looked
  // up in this one (that lookup is dropped by then, so the second answer has the new revision).
  for (let attempt = 1; ; attempt++) {
    try {
      return await answer(request, reply, ctx, asked, selection);
    } catch (error) {
      if (!(error instanceof ReplacedError) || attempt >= 2) throw error;
    }
  }
}

async function answer(request: FastifyRequest, reply: FastifyReply, ctx: RouteContext, asked: StructuredContentsRequest, selection: Selection | undefined): Promise<unknown> {
  const content = contentOf(ctx);
  const abort = abortOnDisconnect(reply);
  const found = await content.service.find(rawSegment(request, '/structured-contents/'), criteriaOf(asked), abort.signal).finally(abort.done);
  const articles = firstProjects(found, asked.limit);
  const key = replyKey(articles, selection);
  const cacheControl = setAge(reply, articles, ctx.clock.now().getTime(), content.clientMaxAgeSeconds);
  if (cacheHeaders(request, reply, weakEtag(key), cacheControl)) return reply.status(304).send();
  const tags = articles.map((a) => articleTag(a.project, a.title));
  const made = await content.replies.get(
    key,
    negotiateEncoding(request.headers['accept-encoding']),
    async () => {
      const texts = await Promise.all(articles.map(async (a) => (selection === undefined ? a.json() : selectFields(await a.json(), selection))));
      return `[${texts.join(',')}]`;
    },
    tags,
  );
  content.replyLookups.inc({ result: made.hit ? 'hit' : 'miss' });
  if (made.reply.encoding !== 'identity') reply.header('content-encoding', made.reply.encoding);
  return reply.type('application/json; charset=utf-8').send(made.reply.bytes);
}

/**
 * What determines a reply's bytes (before compression), written unambiguously: the engine
 * version, the field selection (by meaning) and which revision of which article of which
 * project, in reply order. The reply cache is keyed by it, and the ETag is its hash, so the two
 * can never disagree about what is the same reply.
 */
function replyKey(articles: readonly Found[], selection: Selection | undefined): string {
  return JSON.stringify([ENGINE_VERSION, selection === undefined ? '*' : selectionTree(selection), ...articles.map((a) => [a.project, a.title, a.revision])]);
}
