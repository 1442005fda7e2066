/**
 * `wikistruct snapshot build` as a user runs it, as a real child process: beside a running
 * server that holds the embedded database, the build runs inside that server (through its admin
 * socket) and the server serves the snapshots at once; bad usage and unknown projects are named.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createLogger } from '../../../src/service/logger.js';
import { startServer, type RunningServer } from '../../../src/service/server.js';
import { wikistruct } from '../../support/cli.js';
import { templateDir } from '../helpers/backends.js';
import { call, ndjsonLines, untar } from './enterprise-support.js';
import { envelope } from './support.js';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

/** The variables of a developer's shell must not redirect the command. */
const ENV = { WIKISTRUCT_SNAPSHOTS_DIR: '', WIKISTRUCT_ADMIN_USERNAME: 'admin', WIKISTRUCT_ADMIN_PASSWORD: 'a long test passphrase' };

describe('wikistruct snapshot build', () => {
  let data: string;
  let server: RunningServer;
  let token: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), 'wikistruct-snapshot-cli-'));
    cpSync(await templateDir(), join(data, 'pglite'), { recursive: true });
    Object.assign(process.env, ENV, { DATABASE_URL: '' });
    // The sample articles seed the store: four articles in four projects.
    server = await startServer({ host: '127.0.0.1', port: 0, dataDir: data, logger: createLogger({ level: 'silent' }), announce: () => {}, offline: true });
    const login = await call(server.url, '/v1/login', { body: { username: 'admin', password: ENV.WIKISTRUCT_ADMIN_PASSWORD } });
    token = (login.json as { access_token: string }).access_token;
  });
  afterAll(async () => {
    await server?.close();
    process.env = saved;
    rmSync(data, { recursive: true, force: true });
  });

  test('beside a running server it builds inside the server, which serves the snapshots at once', async () => {
    const run = await wikistruct(['snapshot', 'build', '--data', data, '--jobs', '1'], { env: ENV });
    expect([run.code, run.stderr], 'succeeded').toEqual([0, '']);
    const lines = run.stdout.trim().split('\n');
    expect(lines.map((l) => l.split(':')[0]), 'one line per project and kind').toEqual([
      'built enwiki_namespace_0',
      'built enwiki_namespace_0 (articles)',
      'built enwikiversity_namespace_0',
      'built enwikiversity_namespace_0 (articles)',
      'built frwiki_namespace_0',
      'built frwiki_namespace_0 (articles)',
      'built simplewiki_namespace_0',
      'built simplewiki_namespace_0 (articles)',
    ]);
    for (const line of lines) expect(line, 'says where it ran').toMatch(/: 1 articles, \d+ bytes, version [0-9a-f]{32} in [\d.]+ s \(inside the server, pid \d+\)$/);

    const list = await call(server.url, '/v2/snapshots/structured-contents?fields=identifier', { token });
    expect(list.json, 'served').toEqual([
      { identifier: 'enwiki_namespace_0' },
      { identifier: 'enwikiversity_namespace_0' },
      { identifier: 'frwiki_namespace_0' },
      { identifier: 'simplewiki_namespace_0' },
    ]);
    const download = await call(server.url, '/v2/snapshots/structured-contents/frwiki_namespace_0/download', { token });
    const [line] = ndjsonLines(await untar(download.bytes));
    expect((JSON.parse(line!) as { name: string }).name, 'the sample inside').toBe('Joséphine Baker');
  });

  test('serve builds on start (the samples), and again after a `wikistruct import` into it, in the background', async () => {
    const scheduler = server.app.snapshots!;
    await scheduler.idle();
    expect(scheduler.history.map((h) => [h.reason, h.outcome])[0], 'built on start').toEqual(['start', 'built']);
    const before = scheduler.history.length;
    const inputs = mkdtempSync(join(tmpdir(), 'wikistruct-snapshot-cli-import-'));
    writeFileSync(join(inputs, 'a.json'), JSON.stringify(envelope({ project: 'itwiki', language: 'it', title: 'Zebra', revision: 7 })));
    const imported = await wikistruct(['import', inputs, '--data', data, '--jobs', '1'], { env: ENV });
    expect(imported.code, imported.stderr).toBe(0);
    // The server queued the build before it answered the import.
    await scheduler.idle();
    expect(scheduler.history.slice(before).map((h) => [h.reason, h.outcome]), 'after the import').toEqual([['import', 'built']]);
    for (const path of ['/v2/snapshots/structured-contents/itwiki_namespace_0', '/v2/snapshots/itwiki_namespace_0']) {
      expect((await call(server.url, path, { token })).json, path).toMatchObject({ identifier: 'itwiki_namespace_0', size: { unit_text: 'MB' } });
    }
    rmSync(inputs, { recursive: true, force: true });
  });

  test('serve --snapshots-every takes an interval or off; anything else is bad usage', async () => {
    const bad = await wikistruct(['serve', '--snapshots-every', '5x', '--data', data], { env: ENV });
    expect([bad.code, bad.stderr.trim()], 'named').toEqual([2, 'wikistruct serve: --snapshots-every takes a duration: a whole number with a unit (30m, 24h, 7d), or "off"; got "5x"']);
  });

  test('bad usage exits 2; a project without articles exits 1, named', async () => {
    const none = await wikistruct(['snapshot', '--data', data], { env: ENV });
    expect([none.code, none.stderr.split('\n')[0]], 'no action').toEqual([2, 'wikistruct snapshot: no action given; expected "build"']);
    const bad = await wikistruct(['snapshot', 'build', 'En-Wiki', '--data', data], { env: ENV });
    expect([bad.code, bad.stderr.trim()], 'not a project code').toEqual([2, 'wikistruct snapshot: "En-Wiki" is not a project code like "enwiki"']);
    // import and snapshot read --jobs through one schema: each bound and a non-number are named.
    for (const [command, jobs, message] of [
      ['snapshot', '65', '--jobs must be at most 64'],
      ['snapshot', 'x', '--jobs takes a whole number'],
      ['import', '0', '--jobs must be at least 1'],
      ['import', '2.5', '--jobs must be an integer'],
    ] as const) {
      const args = command === 'snapshot' ? ['snapshot', 'build', '--data', data, '--jobs', jobs] : ['import', data, '--data', data, '--jobs', jobs];
      const usage = await wikistruct(args, { env: ENV });
      expect([usage.code, usage.stderr.trim()], `${command} --jobs ${jobs}`).toEqual([2, `wikistruct ${command}: ${message}`]);
    }
    const missing = await wikistruct(['snapshot', 'build', 'dewiki', '--data', data, '--jobs', '1'], { env: ENV });
    expect([missing.code, missing.stderr.trim()], 'nothing stored').toEqual([1, 'no stored articles of dewiki: nothing to build']);
  });
});
