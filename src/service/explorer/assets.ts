/**
 * Serves the explorer (src/explorer, built into dist/explorer by scripts/build-explorer.mjs): the
 * page at `/`, its script and styles under `/explorer/`. The few files are read once at start and
 * served from memory with an ETag; nothing outside the built directory can be named.
 *
 * The page's Content-Security-Policy allows only its own script and styles, requests to this
 * origin, and images from the Wikimedia wiki hosts and their file host (article thumbnails,
 * image-hosts.ts): an image a hostile page points elsewhere (a tracking pixel) is never fetched,
 * even if the renderer let its markup through. The source pane is a sandboxed srcdoc iframe: it
 * inherits this policy and adds its own stricter one.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.js';
import { noneMatch } from '../routes/v2/http.js';
import { GRAMMAR } from '../../index.js';
import { imageSources, WIKI_HOSTS_META, wikiHostPatterns, writeHostPatterns } from './image-hosts.js';

/** The wiki hosts of grammar/projects.json: the page's `img-src`, and what index.html tells the page. */
const WIKI_HOSTS = wikiHostPatterns(GRAMMAR.projects);

export const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  `img-src 'self' data: ${imageSources(WIKI_HOSTS).join(' ')}`,
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

interface Asset {
  bytes: Buffer;
  type: string;
  etag: string;
}

export interface ExplorerAssetsOptions {
  /** The built explorer; default dist/explorer of this installation. */
  dir?: string | undefined;
}

/** dist/explorer next to the compiled service, or the repository's when running from sources. */
export function defaultAssetsDir(): string {
  const here = new URL(import.meta.url);
  const dir = here.pathname.endsWith('.ts') ? new URL('../../../dist/explorer/', here) : new URL('../../../explorer/', here);
  return fileURLToPath(dir);
}

export const explorerAssets: FastifyPluginAsync<ExplorerAssetsOptions> = async (app, options) => {
  const assets = loadAssets(options.dir ?? defaultAssetsDir());
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });

  const send = (name: string, request: FastifyRequest, reply: FastifyReply) => {
    const asset = assets.get(name);
    if (asset === undefined) {
      if (assets.size === 0) throw new HttpError(503, 'the explorer is not built in this installation: run `npm run build`');
      throw new HttpError(404, `no explorer file ${JSON.stringify(name.slice(0, 100))}`);
    }
    reply
      .header('content-type', asset.type)
      .header('etag', asset.etag)
      // Revalidated on every load (the ETag makes that a 304): a new build is seen at once.
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer');
    if (asset.type.startsWith('text/html')) reply.header('content-security-policy', PAGE_POLICY).header('x-frame-options', 'DENY');
    if (noneMatch(request.headers['if-none-match'], asset.etag)) return reply.status(304).send();
    return reply.send(asset.bytes);
  };
  app.get('/', (request, reply) => send('index.html', request, reply));
  app.get('/explorer/:file', (request, reply) => send((request.params as { file: string }).file, request, reply));
};

/** Every regular file of the built directory, by name; none when it was never built. */
function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!existsSync(join(dir, 'index.html'))) return assets;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const type = TYPES[extname(entry.name)];
    if (!entry.isFile() || type === undefined) continue;
    const bytes = entry.name === 'index.html' ? withWikiHosts(readFileSync(join(dir, entry.name), 'utf8')) : readFileSync(join(dir, entry.name));
    assets.set(entry.name, { bytes, type, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"` });
  }
  return assets;
}

/** index.html with its wiki-hosts `<meta>` filled, so the page decides with the list its policy enforces. */
function withWikiHosts(html: string): Buffer {
  const empty = `<meta name="${WIKI_HOSTS_META}" content="">`;
  return Buffer.from(html.replace(empty, `<meta name="${WIKI_HOSTS_META}" content="${writeHostPatterns(WIKI_HOSTS)}">`), 'utf8');
}
