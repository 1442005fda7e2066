/**
 * GET /v2/source/{article_name}?project=enwiki: a stored article's source (HTML or wikitext) and
 * its Article parsed again (with source hints when it is HTML), for the explorer's side-by-side
 * view. Behind the token and /v2/parse's rate limit, checked before anything is read.
 */
import { z } from 'zod';
import { hostOfProject } from '../../../../index.js';
import type { SourceReply } from '../../../../schema/source-reply.js';
import { envelopeOf } from '../../../content/service.js';
import type { SourceRow } from '../../../content/store.js';
import { InvalidTitleError, normalizeTitle } from '../../../content/title.js';
import type { EngineClient } from '../../../engine-client.js';
import { HttpError } from '../../../errors.js';
import { contentOf } from '../../context.js';
import { rawSegment } from '../../read.js';
import { route, type RouteEntry } from '../../route.js';
import { titleParameter, json, message, ref } from '../docs.js';
import { refused } from '../engine.js';
import { explorerErrors, noStore } from '../parse/index.js';

/**
 * The query: `project` once, a code of a wiki the engine knows, and nothing else. Each message
 * says what to send; validate.ts puts the field in front (`project: required, e.g. ?project=enwiki`).
 */
const SourceQuery = z
  .looseObject({
    project: z
      .string({ error: (issue) => (issue.input === undefined ? 'required, e.g. ?project=enwiki' : 'give it once') })
      .refine((code) => hostOfProject(code) !== undefined, { error: (issue) => `unknown project code ${JSON.stringify(String(issue.input).slice(0, 64))}` }),
  })
  // A parameter of its own message rather than a strict object's `unexpected field`: this is a query.
  .superRefine((query, ctx) => {
    for (const name of Object.keys(query)) {
      if (name !== 'project') ctx.addIssue({ code: 'custom', path: [name], message: 'unexpected query parameter (only project)' });
    }
  });

export const sourceRoutes: readonly RouteEntry[] = [
  route<z.infer<typeof SourceQuery>>({
    method: 'GET',
    path: '/v2/source/:article_name',
    part: 'content',
    summary: "A stored article's source (HTML or wikitext) and its Article parsed again, for side-by-side viewing",
    errors: {
      '400': message('invalid title (named reason)'),
      ...explorerErrors,
      '404': message('no stored article with that title in the project, or one without a kept source'),
      '413': message('the stored source is larger than the engine accepts'),
    },
    openapi: {
      parameters: [titleParameter, { name: 'project', in: 'query', required: true, description: 'Project code, e.g. enwiki (the only query parameter)', schema: { type: 'string' } }],
      responses: { '200': { description: 'The source and its Article', headers: noStore, ...json(ref('SourceReply')) } },
    },
    guard: { limit: 'parse' },
    request: SourceQuery,
    read: (request) => request.query,
    handler: async ({ project }, request, reply, ctx) => {
      const content = contentOf(ctx);
      const title = titleOf(rawSegment(request, '/source/'), project);
      const row = await content.store.source(project, title);
      if (row === undefined) throw new HttpError(404, `no stored article ${JSON.stringify(title)} in ${project} (sources are kept for stored and fetched articles only)`);
      return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(await sourceReply(row, content.engine));
    },
  }),
];

/** The SourceReply as JSON text: the Article comes from the engine as text and is set in as it is. */
async function sourceReply(row: SourceRow, engine: EngineClient): Promise<string> {
  const common = { project: row.project, name: row.title, revision: row.revision };
  let head: Omit<SourceReply, 'article'>;
  let article: string;
  if (row.html !== null) {
    head = { ...common, format: 'html', source: row.html };
    article = await refused(engine.parseEnvelope(envelopeOf(row), { sourcePositions: true }));
  } else if (row.wikitext !== null) {
    head = { ...common, format: 'wikitext', source: row.wikitext };
    const meta = { name: row.title, project: row.project, revision: row.revision, ...(row.page_id === null ? {} : { identifier: row.page_id }) };
    article = await refused(engine.parseWikitext(row.wikitext, meta));
  } else {
    throw new HttpError(404, `the stored article ${JSON.stringify(row.title)} in ${row.project} has no source`);
  }
  return `${JSON.stringify(head).slice(0, -1)},"article":${article}}`;
}

/** The title segment as sent: decoded exactly once, by the title rules (as /v2/structured-contents does). */
function titleOf(raw: string, project: string): string {
  try {
    return normalizeTitle(raw, project);
  } catch (error) {
    if (error instanceof InvalidTitleError) throw new HttpError(400, error.message);
    throw error;
  }
}
