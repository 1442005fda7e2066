/**
 * The explorer's two /v2 routes, both behind an access token and a rate limit of their own:
 *
 * - `POST /v2/parse`: `{html}` or `{wikitext, name, project}` in, the Article out. Nothing is
 *   stored and the body is never logged: this is for looking at what the engine makes of a page.
 * - `GET /v2/source/{article_name}?project=enwiki`: a stored article's source (HTML or wikitext)
 *   and its Article parsed again with source hints, for the explorer's side-by-side view.
 *
 * The token and the rate limit are checked in onRequest, before a body is read: a caller without
 * a token cannot make the server buffer megabytes. Parsing runs on a worker thread of the service's
 * engine client (engine-client.ts), never on the event loop: a large paste does not hold up the
 * process's other requests while it parses.
 *
 * The rate limit is per client, like /v2's (content/rate-limit.ts), and kept where /v2's is: in
 * memory when one process serves every client, in the shared store when several do
 * (`sharedLimiter`, shared-state.ts). Per process, a client behind a load balancer would get N
 * processes' budgets. What bounds one process's CPU is not this limit but the engine client's
 * threads: parses beyond them wait their turn in its queue.
 */
import compress from '@fastify/compress';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { hostOfProject } from '../../index.js';
import type { AccessTokenVerifier } from '../auth/access-token.js';
import { requireAccessToken } from '../auth/require-access-token.js';
import type { Clock } from '../clock.js';
import { ParseFailedError, type EngineClient } from '../engine-client.js';
import { HttpError, tooManyRequests, unprocessable } from '../errors.js';
import type { Limiter } from '../auth/limiter.js';
import { createRequestLimiter, RateLimitSchema, REQUEST_LIMIT_KEYS } from '../content/rate-limit.js';
import { envelopeOf } from '../content/service.js';
import { ArticleStore, type SourceRow } from '../content/store.js';
import { InvalidTitleError, normalizeTitle } from '../content/title.js';
import type { Db } from '../storage/db.js';
import { readParseRequest } from './parse-request.js';
import type { SourceReply } from '../../schema/source-reply.js';

export const ExplorerSettingsSchema = z.object({
  /** Largest html or wikitext `POST /v2/parse` accepts, in UTF-8 bytes. The largest corpus page is 3 MB. */
  maxInputBytes: z.number().int().positive().default(8 * 1024 * 1024),
  /**
   * Parsing is CPU on the event loop, so fewer than the content API's cached reads: a person
   * pasting pages never comes near it, a script looping over it does.
   */
  rateLimit: RateLimitSchema.partial().optional(),
});
export type ExplorerSettings = z.input<typeof ExplorerSettingsSchema> & {
  /** The built explorer page (default: dist/explorer of this installation); served by assets.ts. */
  assetsDir?: string;
};

const DEFAULT_RATE = { perSecond: 1, burst: 20 };

export interface ParseRoutesOptions {
  db: Db;
  clock: Clock;
  verifier: AccessTokenVerifier;
  settings: ExplorerSettings;
  /** The deployment's shared limiter store, when several processes serve it (as ContentRoutesOptions'). */
  sharedLimiter?: Limiter | undefined;
  engine: EngineClient;
}

export const parseRoutes: FastifyPluginAsync<ParseRoutesOptions> = async (app, options) => {
  const settings = ExplorerSettingsSchema.parse(options.settings);
  const limiter = createRequestLimiter(RateLimitSchema.parse({ ...DEFAULT_RATE, ...settings.rateLimit }), options.clock, options.sharedLimiter, REQUEST_LIMIT_KEYS.parse);
  const store = new ArticleStore(options.db, options.clock);
  // JSON escaping can double a page's size (every `"` becomes `\"`), so the body may be larger
  // than the input limit; the input itself is held to `maxInputBytes` by the engine.
  const bodyLimit = 2 * settings.maxInputBytes + 1024;

  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit }, (_request, text, done) => done(null, text));
  app.setErrorHandler((error, _request, reply) => {
    // The app's handler names its own 16 KiB limit: this route's is another.
    if ((error as { code?: unknown }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ message: `request body is larger than ${bodyLimit} bytes (inputs up to ${settings.maxInputBytes} bytes of UTF-8)`, status: 413 });
    }
    throw error; // to the app's handler: every other error becomes its usual Message there
  });

  const authenticate = requireAccessToken(options.verifier);
  const limit = async (request: FastifyRequest): Promise<void> => {
    const wait = await limiter.take(request.accessClaims?.sub ?? request.ip);
    if (wait > 0) throw tooManyRequests(`rate limit exceeded for parsing; retry in ${wait} s`, wait);
  };
  app.post('/parse', { onRequest: [authenticate, limit], bodyLimit }, async (request, reply) => {
    const asked = readParseRequest(request.body);
    const { engine } = options;
    const maxInputBytes = settings.maxInputBytes;
    const article =
      asked.kind === 'html'
        ? await refused(engine.parseHtml(asked.html, { maxInputBytes, sourcePositions: asked.sourcePositions }))
        : await refused(engine.parseWikitext(asked.wikitext, { name: asked.name, project: asked.project }, { maxInputBytes }));
    return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(article);
  });

  app.get('/source/:article_name', { onRequest: [authenticate, limit] }, async (request, reply) => {
    const project = projectOf(request.query);
    const title = titleOf(request, project);
    const row = await store.source(project, title);
    if (row === undefined) throw new HttpError(404, `no stored article ${JSON.stringify(title)} in ${project} (sources are kept for stored and fetched articles only)`);
    const body = await sourceReply(row, options.engine);
    return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
  });
};

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

/** The engine's refusals as replies: too large is a 413, anything else it refuses a 422. */
async function refused(parsed: Promise<string>): Promise<string> {
  try {
    return await parsed;
  } catch (error) {
    if (!(error instanceof ParseFailedError)) throw error;
    if (error.code === 'INPUT_TOO_LARGE') throw new HttpError(413, error.message);
    throw unprocessable(error.message);
  }
}

function projectOf(query: unknown): string {
  const q = (query ?? {}) as Record<string, unknown>;
  const unknown = Object.keys(q).filter((k) => k !== 'project');
  if (unknown.length > 0) throw unprocessable(`${unknown.join(', ')}: unexpected query parameter (only project)`);
  const project = q['project'];
  if (project === undefined) throw unprocessable('project: required, e.g. ?project=enwiki');
  if (typeof project !== 'string') throw unprocessable('project: give it once');
  if (hostOfProject(project) === undefined) throw unprocessable(`project: unknown project code ${JSON.stringify(project.slice(0, 64))}`);
  return project;
}

/** The title segment as sent: decoded exactly once, by the title rules (as /v2/structured-contents does). */
function titleOf(request: FastifyRequest, project: string): string {
  const path = request.url.split('?')[0] ?? '';
  const raw = path.slice(path.lastIndexOf('/source/') + '/source/'.length);
  try {
    return normalizeTitle(raw, project);
  } catch (error) {
    if (error instanceof InvalidTitleError) throw new HttpError(400, error.message);
    throw error;
  }
}
