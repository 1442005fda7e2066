/**
 * The paths and requests real Enterprise clients send, over real sockets on both storage
 * backends: the official Python SDK's (a list at `snapshots/structured-contents/` with a trailing
 * slash, POSTs with `Content-Type: application/json` and no body, HEAD before a download in
 * Range pieces), and the chunks of both kinds of snapshot (`…/{identifier}/chunks`, one chunk's
 * info, its download with Range), built by the real builder from imported articles: each chunk
 * a `.tar.gz` of its own holding whole articles, as production serves them and the SDK's
 * read_chunk reads them (with Python's tarfile when a python3 is on the machine).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { importInputs } from '../../../src/service/content/importer.js';
import { ArticleStore } from '../../../src/service/content/store.js';
import { createEngineClient } from '../../../src/service/engine-client.js';
import { runSnapshotBuildCommand } from '../../../src/service/snapshots/command.js';
import { BACKENDS, freshDir, type TestDatabase } from '../helpers/backends.js';
import { addUser, startTestServer, type TestServer } from '../helpers/harness.js';
import { sizeOf } from '../../../src/service/snapshots/layout.js';
import { call, ndjsonLines, untar, type CallInit } from './enterprise-support.js';
import { envelope, logIn, writeEnvelopes } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

/** The server's chunk size: a few of the builder's entries (one article each: ENTRY_BYTES) per chunk. */
const CHUNK_BYTES = 2000;
/** The builder's entry size: every article an entry of its own, so a chunk can end after any of them. */
const ENTRY_BYTES = 1;
const KINDS = [
  { label: 'snapshot', path: '/v2/snapshots' },
  { label: 'structured snapshot', path: '/v2/snapshots/structured-contents' },
] as const;
/** A python3 on the machine, or undefined (the check that needs it is skipped). */
const PYTHON = ['python3'].find((name) => spawnSync(name, ['--version']).status === 0);
/** As the SDK reads a downloaded archive (read_all): tarfile over the bytes, each member's lines parsed as JSON; prints the names. */
const PYTHON_READ_CHUNK = [
  'import io, json, sys, tarfile',
  'names = []',
  'with tarfile.open(fileobj=io.BytesIO(sys.stdin.buffer.read()), mode="r:gz") as tar:',
  '    for member in tar.getmembers():',
  '        f = tar.extractfile(member)',
  '        if f:',
  '            for line in io.TextIOWrapper(io.BytesIO(f.read()), encoding="utf-8"):',
  '                names.append(json.loads(line)["name"])',
  'print(json.dumps(names))',
].join('\n');
const TITLES = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Katherine Johnson', 'Margaret Hamilton'];

describe.each(BACKENDS)('the paths clients send, and snapshot chunks, on $name', (backend) => {
  const skip = backend.skip !== undefined;
  let database: TestDatabase;
  let server: TestServer;
  let token: string;
  let snapshots: string;
  const as = (path: string, init: CallInit = {}) => call(server.url, path, { token, ...init });
  /** As the Python SDK sends an entity request without options: POST, JSON content type, no body. */
  const sdkPost = (path: string) => as(path, { method: 'POST', headers: { 'content-type': 'application/json' } });

  beforeAll(async () => {
    if (skip) return;
    database = await backend.open();
    snapshots = join(database.dir, 'snapshots');
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
    expect((await runSnapshotBuildCommand(database.db, server.clock, { action: 'snapshot-build', dir: snapshots, jobs: 1, chunkBytes: ENTRY_BYTES })).ok, 'built').toBe(true);
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

  for (const kind of KINDS) {
    test.skipIf(skip)(`${kind.label} chunks: each a .tar.gz of its own holding whole NDJSON lines, together the snapshot's lines in order; Range within a chunk`, async () => {
      const base = `${kind.path}/enwiki_namespace_0`;
      const whole = await as(`${base}/download`);
      const wholeLines = ndjsonLines(await untar(whole.bytes));
      expect(wholeLines.length, 'every article in the snapshot').toBe(TITLES.length);
      const info = (await as(base)).json as Record<string, unknown>;
      const chunks = (await as(`${base}/chunks`)).json as { identifier: string; size: { value: number; unit_text: string } }[];
      expect(chunks.length, 'several chunks').toBeGreaterThan(1);
      expect(chunks.length, 'entries grouped: fewer chunks than entries (one article each)').toBeLessThan(TITLES.length);
      expect(chunks.map((c) => c.identifier), 'named after the snapshot, numbered from 0').toEqual(chunks.map((_, n) => `enwiki_namespace_0_chunk_${n}`));
      expect(info['chunks'], 'the snapshot lists its chunks').toEqual(chunks.map((c) => c.identifier));
      const { identifier: _id, size: _size, chunks: _chunks, ...shared } = info;
      for (const chunk of chunks) expect([chunk, 'chunks' in chunk], 'the snapshot\'s version, date, project, language and namespace').toEqual([{ ...shared, identifier: chunk.identifier, size: chunk.size }, false]);

      const downloads: Buffer[] = [];
      const lines: string[] = [];
      for (const chunk of chunks) {
        const one = await as(`${base}/chunks/${chunk.identifier}`, { body: { fields: ['identifier', 'version'] } });
        expect(one.json, 'one chunk\'s info, with fields').toEqual({ identifier: chunk.identifier, version: info['version'] });
        const download = await as(`${base}/chunks/${chunk.identifier}/download`);
        expect([download.status, download.headers.get('etag'), download.headers.get('content-disposition'), download.headers.get('content-type')], chunk.identifier).toEqual([
          200,
          `"${String(info['version'])}"`,
          `attachment; filename="${chunk.identifier}.tar.gz"`,
          'application/gzip',
        ]);
        expect(chunk.size, `${chunk.identifier}: its download's size, in MB as snapshots say theirs`).toEqual(sizeOf(download.bytes.length));
        // Alone: one gzip stream holding one tar, closed by the end-of-archive blocks (two zero records), as a whole snapshot is.
        const tarBytes = gunzipSync(download.bytes);
        expect([tarBytes.length % 512, tarBytes.subarray(-1024).equals(Buffer.alloc(1024))], `${chunk.identifier}: a whole tar, end-of-archive blocks and all`).toEqual([0, true]);
        // Every entry is whole lines (each ends with a newline).
        const entries = await untar(download.bytes);
        expect(entries.size, `${chunk.identifier}: at least one entry`).toBeGreaterThan(0);
        for (const [name, text] of entries) expect([name, text.endsWith('\n')], `${chunk.identifier}: ${name} ends at a line's end`).toEqual([expect.stringMatching(/^enwiki_namespace_0_\d+\.ndjson$/), true]);
        const own = ndjsonLines(entries);
        for (const line of own) expect(() => JSON.parse(line), `${chunk.identifier}: a whole article per line`).not.toThrow();
        expect(download.bytes.length <= CHUNK_BYTES || entries.size === 1, `${chunk.identifier}: within ${CHUNK_BYTES} bytes, unless one entry alone is larger`).toBe(true);
        downloads.push(download.bytes);
        lines.push(...own);
      }
      expect(lines, 'the chunks\' lines together are the snapshot\'s lines, in order').toEqual(wholeLines);

      // Range within a chunk: pieces that cut the file's bytes, the end-of-archive member, and across both.
      const first = chunks[0]!.identifier;
      const bytes = downloads[0]!;
      const path = `${base}/chunks/${first}/download`;
      for (const cut of [1, Math.floor(bytes.length / 2), bytes.length - 40, bytes.length - 10]) {
        const pieces = [await as(path, { headers: { range: `bytes=0-${cut - 1}`, 'if-range': `"${String(info['version'])}"` } }), await as(path, { headers: { range: `bytes=${cut}-` } })];
        expect(pieces.map((p) => [p.status, p.headers.get('content-range')]), `cut at ${cut}`).toEqual([
          [206, `bytes 0-${cut - 1}/${bytes.length}`],
          [206, `bytes ${cut}-${bytes.length - 1}/${bytes.length}`],
        ]);
        expect(Buffer.concat(pieces.map((p) => p.bytes)).equals(bytes), `cut at ${cut}: the pieces are the chunk`).toBe(true);
      }
      const middle = await as(path, { headers: { range: `bytes=${bytes.length - 40}-${bytes.length - 20}` } });
      expect([middle.status, middle.bytes.equals(bytes.subarray(-40, -19))], 'a range across the entries and the end-of-archive member').toEqual([206, true]);
      const head = await as(path, { method: 'HEAD' });
      expect([head.status, head.headers.get('content-length'), head.bytes.length], 'HEAD: the chunk\'s length').toEqual([200, String(bytes.length), 0]);
      const past = await as(path, { headers: { range: `bytes=${bytes.length}-` } });
      expect([past.status, past.headers.get('content-range'), past.json], 'a range past the chunk\'s end').toEqual([
        416,
        `bytes */${bytes.length}`,
        { message: `range not satisfiable: ${first}.tar.gz is ${bytes.length} bytes`, status: 416 },
      ]);
      const stale = await as(path, { headers: { range: 'bytes=0-9', 'if-range': '"an older version"' } });
      expect([stale.status, stale.bytes.equals(bytes)], 'If-Range of another version: the whole chunk').toEqual([200, true]);
      const cached = await as(path, { headers: { 'if-none-match': `"${String(info['version'])}"` } });
      expect(cached.status, 'If-None-Match: 304').toBe(304);

      // What the Python SDK's read_chunk does with a chunk's bytes: tarfile.open(fileobj=..., mode="r:gz"), every member's lines as JSON.
      if (PYTHON === undefined) {
        console.log('skipping the Python tarfile check: no python3');
      } else {
        const read = downloads.map((chunk) => spawnSync(PYTHON!, ['-c', PYTHON_READ_CHUNK], { input: chunk, encoding: 'utf8' }));
        for (const [n, run] of read.entries()) expect([run.status, run.stderr], `python3 reads ${chunks[n]!.identifier}`).toEqual([0, '']);
        expect(read.flatMap((run) => JSON.parse(run.stdout) as string[]), 'python3: the snapshot\'s articles, in order').toEqual(wholeLines.map((line) => (JSON.parse(line) as { name: string }).name));
      }

      const count = chunks.length;
      const missing = [
        [`${base}/chunks/enwiki_namespace_0_chunk_${count}/download`, `no chunk "enwiki_namespace_0_chunk_${count}" of the ${kind.label} "enwiki_namespace_0": it has ${count} (enwiki_namespace_0_chunk_0, …)`],
        [`${base}/chunks/frwiki_namespace_0_chunk_0`, `no chunk "frwiki_namespace_0_chunk_0" of a built ${kind.label}: chunk identifiers look like enwiki_namespace_0_chunk_0`],
        [`${kind.path}/dewiki_namespace_0/chunks`, `no ${kind.label} "dewiki_namespace_0" (the server builds snapshots of stored projects in the background, or build them with \`wikistruct snapshot build\`)`],
      ];
      for (const [where, message] of missing) expect((await as(where!)).json, where).toEqual({ message, status: 404 });
    });
  }

  test.skipIf(skip)('a sidecar written before chunks (no entry ends) has one chunk: the whole file', async () => {
    const dir = join(snapshots, 'articles');
    const sidecarFile = join(dir, 'enwiki_namespace_0.json');
    const original = readFileSync(sidecarFile, 'utf8');
    try {
      const { entry_ends: _ends, ...old } = JSON.parse(original) as Record<string, unknown>;
      writeFileSync(sidecarFile, JSON.stringify(old));
      const chunks = (await as('/v2/snapshots/enwiki_namespace_0/chunks')).json as { identifier: string }[];
      expect(chunks.map((c) => c.identifier), 'one chunk').toEqual(['enwiki_namespace_0_chunk_0']);
      const [chunk, whole] = [await as('/v2/snapshots/enwiki_namespace_0/chunks/enwiki_namespace_0_chunk_0/download'), await as('/v2/snapshots/enwiki_namespace_0/download')];
      expect(chunk.bytes.equals(whole.bytes), 'the whole file').toBe(true);
    } finally {
      writeFileSync(sidecarFile, original);
    }
  });
});
