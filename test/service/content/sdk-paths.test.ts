/**
 * The paths and requests real Enterprise clients send, over real sockets on both storage
 * backends: the official Python SDK's (a list at `snapshots/structured-contents/` with a trailing
 * slash, POSTs with `Content-Type: application/json` and no body, HEAD before a download in
 * Range pieces), and the chunks of a snapshot (`/v2/snapshots/{identifier}/chunks`, one chunk's
 * info, its download with Range), built by the real builder from imported articles.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { importInputs } from '../../../src/service/content/importer.js';
import { ArticleStore } from '../../../src/service/content/store.js';
import { createEngineClient } from '../../../src/service/engine-client.js';
import { runSnapshotBuildCommand } from '../../../src/service/snapshots/command.js';
import { BACKENDS, freshDir, type TestDatabase } from '../helpers/backends.js';
import { addUser, startTestServer, type TestServer } from '../helpers/harness.js';
import { call, type CallInit } from './enterprise-support.js';
import { envelope, logIn, writeEnvelopes } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const CHUNK_BYTES = 200;
const TITLES = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Katherine Johnson', 'Margaret Hamilton'];

describe.each(BACKENDS)('the paths clients send, and snapshot chunks, on $name', (backend) => {
  const skip = backend.skip !== undefined;
  let database: TestDatabase;
  let server: TestServer;
  let token: string;
  const as = (path: string, init: CallInit = {}) => call(server.url, path, { token, ...init });
  /** As the Python SDK sends an entity request without options: POST, JSON content type, no body. */
  const sdkPost = (path: string) => as(path, { method: 'POST', headers: { 'content-type': 'application/json' } });

  beforeAll(async () => {
    if (skip) return;
    database = await backend.open();
    const snapshots = join(database.dir, 'snapshots');
    server = await startTestServer(database.db, {
      outboxDir: join(database.dir, 'outbox'),
      offline: true,
      content: { parseThreads: 1, rateLimit: { burst: 10_000, perSecond: 10_000 }, snapshotsDir: snapshots, snapshotChunkBytes: CHUNK_BYTES },
    });
    const parser = createEngineClient({ threads: 1 });
    try {
      const dir = writeEnvelopes(
        freshDir('wikistruct-sdk-paths'),
        TITLES.map((title, i) => envelope({ project: 'enwiki', language: 'en', title, revision: 10 + i })),
      );
      expect(await importInputs([dir], { store: new ArticleStore(database.db, server.clock), engine: parser }), 'imported').toMatchObject({ inserted: TITLES.length, failed: 0 });
    } finally {
      await parser.close();
    }
    expect((await runSnapshotBuildCommand(database.db, server.clock, { action: 'snapshot-build', dir: snapshots, jobs: 1 })).ok, 'built').toBe(true);
    const { username, password } = await addUser(database.db, server.clock);
    token = (await logIn(server, username, password)).accessToken;
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  test.skipIf(skip)('every path of the Python SDK, with and without a trailing slash, as it sends them', async () => {
    const list = await sdkPost('/v2/snapshots/structured-contents/');
    expect([list.status, (list.json as { identifier: string }[]).map((s) => s.identifier)], 'the structured snapshot list at its trailing-slash path').toEqual([200, ['enwiki_namespace_0']]);
    const plain = await sdkPost('/v2/snapshots/structured-contents');
    expect(plain.text, 'the same list as without the slash').toBe(list.text);
    for (const path of ['/v2/codes', '/v2/languages', '/v2/projects', '/v2/namespaces', '/v2/snapshots', '/v2/codes/wiki', '/v2/namespaces/0', '/v2/snapshots/enwiki_namespace_0', '/v2/snapshots/structured-contents/enwiki_namespace_0', '/v2/snapshots/enwiki_namespace_0/chunks', '/v2/snapshots/enwiki_namespace_0/chunks/enwiki_namespace_0_chunk_0']) {
      const [withSlash, without] = [await sdkPost(`${path}/`), await sdkPost(path)];
      expect([withSlash.status, withSlash.text], `POST ${path}/`).toEqual([200, without.text]);
    }
    for (const name of ['Ada_Lovelace']) {
      expect((await sdkPost(`/v2/articles/${name}`)).status, 'articles').toBe(200);
      expect((await sdkPost(`/v2/structured-contents/${name}`)).status, 'structured contents').toBe(200);
    }
    for (const path of ['/v2/snapshots/structured-contents/enwiki_namespace_0/download', '/v2/snapshots/enwiki_namespace_0/download', '/v2/snapshots/enwiki_namespace_0/chunks/enwiki_namespace_0_chunk_1/download']) {
      // HEAD for the length, then the pieces with Range, as _download_entity does (JSON content type and all).
      const head = await as(path, { method: 'HEAD', headers: { 'content-type': 'application/json' } });
      const length = Number(head.headers.get('content-length'));
      expect([head.status, head.headers.get('accept-ranges'), length > 0], `HEAD ${path}`).toEqual([200, 'bytes', true]);
      const whole = await as(path, { headers: { 'content-type': 'application/json' } });
      const half = Math.floor(length / 2);
      const pieces = [await as(path, { headers: { range: `bytes=0-${half - 1}` } }), await as(path, { headers: { range: `bytes=${half}-${length - 1}` } })];
      expect(pieces.map((p) => p.status), `${path}: two pieces`).toEqual([206, 206]);
      expect(Buffer.concat(pieces.map((p) => p.bytes)).equals(whole.bytes), `${path}: the pieces are the whole`).toBe(true);
    }
    const wrong = await as('/v2/codes/', { method: 'DELETE' });
    expect([wrong.status, wrong.headers.get('allow'), (wrong.json as { status?: number }).status], 'a trailing slash keeps the 405 and its Allow').toEqual([405, 'GET, HEAD, POST', 405]);
  });

  test.skipIf(skip)('chunks: the file cut into pieces of a fixed size, listed with their sizes, each downloadable with Range', async () => {
    const whole = await as('/v2/snapshots/enwiki_namespace_0/download');
    const length = whole.bytes.length;
    expect(length, 'a file of several chunks').toBeGreaterThan(2 * CHUNK_BYTES);
    const info = (await as('/v2/snapshots/enwiki_namespace_0')).json as Record<string, unknown>;
    const chunks = (await as('/v2/snapshots/enwiki_namespace_0/chunks')).json as { identifier: string; size: { value: number; unit_text: string } }[];
    const count = Math.ceil(length / CHUNK_BYTES);
    expect(chunks.map((c) => c.identifier), 'named after the snapshot, numbered from 0').toEqual(Array.from({ length: count }, (_, n) => `enwiki_namespace_0_chunk_${n}`));
    expect(info['chunks'], 'the snapshot lists its chunks').toEqual(chunks.map((c) => c.identifier));
    const { identifier: _id, size: _size, chunks: _chunks, ...shared } = info;
    for (const chunk of chunks) expect([chunk, 'chunks' in chunk], 'the snapshot\'s version, date, project, language and namespace').toEqual([{ ...shared, identifier: chunk.identifier, size: chunk.size }, false]);
    const bytes: Buffer[] = [];
    for (const [n, chunk] of chunks.entries()) {
      const expected = Math.min(CHUNK_BYTES, length - n * CHUNK_BYTES);
      expect(chunk.size, `${chunk.identifier}: its size, in MB as snapshots say theirs`).toEqual({ value: Number((expected / 1e6).toFixed(3)), unit_text: 'MB' });
      const one = await as(`/v2/snapshots/enwiki_namespace_0/chunks/${chunk.identifier}`, { body: { fields: ['identifier', 'version'] } });
      expect(one.json, 'one chunk\'s info, with fields').toEqual({ identifier: chunk.identifier, version: info['version'] });
      const download = await as(`/v2/snapshots/enwiki_namespace_0/chunks/${chunk.identifier}/download`);
      expect([download.status, download.bytes.length, download.headers.get('etag'), download.headers.get('content-disposition')], chunk.identifier).toEqual([
        200,
        expected,
        `"${String(info['version'])}"`,
        `attachment; filename="${chunk.identifier}.tar.gz"`,
      ]);
      bytes.push(download.bytes);
    }
    expect(Buffer.concat(bytes).equals(whole.bytes), 'the chunks in order are the file').toBe(true);

    const last = chunks.at(-1)!.identifier;
    const lastBytes = bytes.at(-1)!;
    const tail = await as(`/v2/snapshots/enwiki_namespace_0/chunks/${last}/download`, { headers: { range: 'bytes=-10' } });
    expect([tail.status, tail.headers.get('content-range'), tail.bytes.equals(lastBytes.subarray(-10))], 'Range within the chunk').toEqual([206, `bytes ${lastBytes.length - 10}-${lastBytes.length - 1}/${lastBytes.length}`, true]);
    const past = await as(`/v2/snapshots/enwiki_namespace_0/chunks/${last}/download`, { headers: { range: `bytes=${lastBytes.length}-` } });
    expect([past.status, past.headers.get('content-range'), past.json], 'a range past the chunk\'s end').toEqual([
      416,
      `bytes */${lastBytes.length}`,
      { message: `range not satisfiable: ${last}.tar.gz is ${lastBytes.length} bytes`, status: 416 },
    ]);
    const stale = await as(`/v2/snapshots/enwiki_namespace_0/chunks/enwiki_namespace_0_chunk_0/download`, { headers: { range: 'bytes=0-9', 'if-range': '"an older version"' } });
    expect([stale.status, stale.bytes.equals(bytes[0]!)], 'If-Range of another version: the whole chunk').toEqual([200, true]);

    const missing = [
      [`/v2/snapshots/enwiki_namespace_0/chunks/enwiki_namespace_0_chunk_${count}/download`, `no chunk "enwiki_namespace_0_chunk_${count}" of the snapshot "enwiki_namespace_0": it has ${count} (enwiki_namespace_0_chunk_0, …)`],
      [`/v2/snapshots/enwiki_namespace_0/chunks/frwiki_namespace_0_chunk_0`, 'no chunk "frwiki_namespace_0_chunk_0" of a built snapshot: chunk identifiers look like enwiki_namespace_0_chunk_0'],
      [`/v2/snapshots/dewiki_namespace_0/chunks`, 'no snapshot "dewiki_namespace_0" (the server builds snapshots of stored projects in the background, or build them with `wikistruct snapshot build`)'],
    ];
    for (const [path, message] of missing) expect((await as(path!)).json, path).toEqual({ message, status: 404 });
  });
});
