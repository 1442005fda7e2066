/**
 * POST /v2/parse: `{html}` or `{wikitext, name, project}` in, the Article out, parsed on the
 * engine client's worker threads (never on the event loop). Nothing is stored and the body is
 * never logged: this is for looking at what the engine makes of a page (the explorer).
 *
 * The token and a rate limit of its own (fewer than the cached reads': a person pasting pages
 * never comes near it, a script looping over it does) are checked before the body is read: a
 * caller without a token cannot make the server buffer megabytes.
 */
import { hostOfProject } from '../../../../index.js';
import { ParseRequestSchema, ProjectCodeSchema, type ParseRequestBody } from '../../../../schema/parse-request.js';
import { unprocessable } from '../../../errors.js';
import { contentOf } from '../../context.js';
import { jsonText } from '../../read.js';
import { route, type RouteEntry } from '../../route.js';
import { body, json, message, ref, unauthorized } from '../docs.js';
import { refused } from '../engine.js';

const USAGE = 'request body must be a JSON object: {"html": "..."} or {"wikitext": "...", "name": "...", "project": "enwiki"}';

/** The request's shape, with the project code checked against the wikis the engine knows. */
const ParseRequest = ParseRequestSchema.extend({
  project: ProjectCodeSchema.refine((code) => hostOfProject(code) !== undefined, {
    message: 'unknown project code (a database name such as enwiki, frwiki or enwikiversity)',
  }).optional(),
});

export const noStore = { 'Cache-Control': { description: 'no-store', schema: { type: 'string' } } };
/** The errors of both explorer routes (/v2/parse, /v2/source). */
export const explorerErrors = {
  '401': unauthorized,
  '422': message('malformed body or query: not JSON, an unknown or mistyped field, html and wikitext together, an unknown project; or a page over a work limit of the engine, INPUT_TOO_COMPLEX (the message names it)'),
  '429': { ...message('rate limited: parsing has a limit of its own (Retry-After)'), headers: { 'Retry-After': { schema: { type: 'integer' } } } },
};

export const parseRoutes: readonly RouteEntry[] = [
  route<ParseRequestBody & { source_positions: boolean }>({
    method: 'POST',
    path: '/v2/parse',
    part: 'content',
    summary: 'Parse HTML or wikitext sent in the body into an Article; nothing is stored',
    request: ParseRequest,
    read: (request) => {
      if (typeof request.body !== 'string' || request.body.trim() === '') throw unprocessable(USAGE);
      return jsonText(request.body, undefined);
    },
    whole: USAGE,
    errors: { ...explorerErrors, '413': message('the body, or the html or wikitext in it, is larger than the configured limit') },
    openapi: {
      requestBody: body('ParseRequest', true),
      responses: {
        '200': {
          description: 'The Article; with `source_positions` its block-level Parts carry `source` hints',
          headers: noStore,
          ...json({ anyOf: [ref('Article'), ref('SourcedArticle')] }),
        },
      },
    },
    guard: { limit: 'parse' },
    // JSON escaping can double a page's size (every `"` becomes `\"`), so the body may be larger
    // than the input limit; the input itself is held to `maxInputBytes` by the engine.
    bodyLimit: (ctx) => {
      const { maxInputBytes } = contentOf(ctx);
      const bytes = 2 * maxInputBytes + 1024;
      return { bytes, message: `request body is larger than ${bytes} bytes (inputs up to ${maxInputBytes} bytes of UTF-8)` };
    },
    handler: async (asked, _request, reply, ctx) => {
      const { engine, maxInputBytes } = contentOf(ctx);
      let article: string;
      if (asked.html !== undefined) {
        if (asked.wikitext !== undefined) throw unprocessable('send either html or wikitext, not both');
        // Silently ignoring them would let a client believe they were used: the HTML names its page.
        if (asked.name !== undefined || asked.project !== undefined) throw unprocessable('name and project go with wikitext; HTML carries its own title and project');
        article = await refused(engine.parseHtml(asked.html, { maxInputBytes, sourcePositions: asked.source_positions }));
      } else {
        if (asked.wikitext === undefined) throw unprocessable(USAGE);
        if (asked.name === undefined) throw unprocessable('name: required with wikitext (the page title)');
        if (asked.project === undefined) throw unprocessable('project: required with wikitext (a database name such as enwiki)');
        if (asked.source_positions) throw unprocessable('source_positions: available for html only (wikitext is not HTML: no elements to point at)');
        article = await refused(engine.parseWikitext(asked.wikitext, { name: asked.name, project: asked.project }, { maxInputBytes }));
      }
      return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(article);
    },
  }),
];
