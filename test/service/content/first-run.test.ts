/**
 * A new user's first five minutes, as real processes: `wikistruct serve` on a fresh data
 * directory (no import step, no network needed) seeds the shipped sample articles, creates the
 * admin and prints its password once on standard error; the README's own curl session then runs
 * as written; `wikistruct import` works beside the running server; a start that cannot listen
 * creates no account and prints no password.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { openStorage } from '../../../src/service/storage/open.js';
import { templateDir } from '../helpers/backends.js';
import { serve as serveProcess, wikistruct, type Serving } from '../../support/cli.js';
import { outputPattern, readmeSession } from '../../support/readme-session.js';
import { envelope, structuredContents, writeEnvelopes } from './support.js';

vi.setConfig({ testTimeout: 180_000 });

const ADMIN_UNSET = { WIKISTRUCT_ADMIN_PASSWORD: '', WIKISTRUCT_ADMIN_USERNAME: '' };
const exec = promisify(execFile);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function freshDataDir(): Promise<string> {
  const data = mkdtempSync(join(tmpdir(), 'wikistruct-first-run-'));
  dirs.push(data);
  cpSync(await templateDir(), join(data, 'pglite'), { recursive: true }); // skip a 10 s initdb
  return data;
}

/** `wikistruct serve` with the admin variables unset and info logs. */
const serve = (args: string[]): Promise<Serving> => serveProcess(args, { env: { ...ADMIN_UNSET, LOG_LEVEL: 'info' } });

describe('first run', () => {
  test('serve seeds the samples and prints the password once; the README session runs as written; import beside the server', async () => {
    const data = await freshDataDir();
    const server = await serve(['--port', '0', '--data', data]);
    try {
      const stderr = server.stderr();
      expect(stderr, 'the samples are announced in one line').toMatch(
        /^Loaded 4 sample articles into the empty store \(samples\/NOTICE\.md\): Albert Einstein \(enwiki\), Albert Einstein \(enwikiversity\), Albert Einstein \(simplewiki\), Joséphine Baker \(frwiki\)\.$/m,
      );
      const password = /^ {2}password: (\S+)$/m.exec(stderr)?.[1];
      expect(password, 'the generated password, on standard error').toBeDefined();
      expect(stderr, 'in a framed block').toMatch(/\n=+\nFirst start: created the administrator account "admin"\.\n {2}password: \S+\n[\s\S]*?\n=+\n/);
      expect(stderr.match(/password: /g)?.length, 'printed once').toBe(1);
      expect(server.stdout(), 'never on standard output, with the log lines').not.toContain(password!);

      // The README's session, each command run by a shell as a user pastes it.
      const port = new URL(server.url).port;
      const vars: Record<string, string> = {};
      const steps = readmeSession();
      expect(steps.filter((s) => s.command.startsWith('curl')).length, 'the README shows five curl commands').toBe(5);
      for (const step of steps) {
        if (!step.command.startsWith('curl')) {
          expect(step.command, 'the only other line sets ACCESS and REFRESH').toMatch(/^ACCESS=\S+\s+REFRESH=\S+$/);
          continue;
        }
        const command = step.command.replaceAll('localhost:8080', `localhost:${port}`).replace('8wqk0o4y7Q1M2xkV-yqE', password!);
        const { stdout } = await exec('bash', ['-c', command], { env: { ...process.env, ...vars } });
        expect(stdout, `${step.command}\nprints what the README shows`).toMatch(outputPattern(step.expected!));
        if (command.includes('/v1/login')) {
          const reply = JSON.parse(stdout) as { access_token: string; refresh_token: string };
          vars['ACCESS'] = reply.access_token;
          vars['REFRESH'] = reply.refresh_token;
        }
        if (command.includes('structured-contents') && command.includes('--compressed')) {
          const [article] = JSON.parse(stdout) as [{ infoboxes: unknown[] }];
          expect(article.infoboxes.length, 'the sample has its infobox').toBeGreaterThan(0);
        }
      }

      // Import while the server holds the embedded database: it runs inside the server.
      const inputs = writeEnvelopes(join(data, 'inputs'), [envelope({ project: 'enwiki', language: 'en', title: 'Josephine Baker', revision: 42 })]);
      const imported = await wikistruct(['import', inputs, '--data', data, '--jobs', '1'], { env: ADMIN_UNSET });
      expect([imported.code, imported.stdout.trim()], 'import reports what it loaded, through the server').toEqual([
        0,
        expect.stringMatching(
          new RegExp(
            `^imported 1 records through the server \\(pid ${server.child.pid}, http://127\\.0\\.0\\.1:${port}\\) in [\\d.]+ s: 1 new, 0 replaced by a newer revision, 0 already stored at this or a newer revision, 0 skipped \\(not articles\\), 0 failed$`,
          ),
        ),
      ]);
      const login = (await (
        await fetch(`${server.url}/v1/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password }) })
      ).json()) as { access_token: string };
      const served = await structuredContents(server.url, 'Josephine_Baker', { token: login.access_token, body: { filters: [{ field: 'is_part_of.identifier', value: 'enwiki' }] } });
      expect([served.status, (served.json as [{ name: string }])[0]?.name], 'the imported article is served at once').toEqual([200, 'Josephine Baker']);
      const missing = await wikistruct(['import', join(data, 'no-such-file.json'), '--data', data], { env: ADMIN_UNSET });
      expect([missing.code, missing.stderr.trim()], 'a missing input is named').toEqual([2, `wikistruct import: no such file or directory: ${join(data, 'no-such-file.json')}`]);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited, 'serve exits cleanly').toBe(0);

    const again = await serve(['--port', '0', '--data', data]);
    again.child.kill('SIGTERM');
    await again.exited;
    expect(again.stderr(), 'a second start creates no account and prints no password').not.toContain('password:');
    expect(again.stderr(), 'nor loads the samples again').not.toContain('sample articles');
  });

  test('a start that cannot listen creates no account and prints no password', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const data = await freshDataDir();
    try {
      const run = await wikistruct(['serve', '--port', String(port), '--data', data, '--no-samples'], { env: ADMIN_UNSET });
      expect([run.code, run.stderr.trim()], 'the port is named').toEqual([1, `wikistruct serve: 127.0.0.1:${port} is already in use (choose another with --host/--port)`]);
      expect(run.stdout + run.stderr, 'no password printed').not.toContain('password');
    } finally {
      taken.close();
    }
    const storage = await openStorage({ dataDir: data, command: 'test' });
    try {
      const rows = await storage.db.query<{ n: string }>('SELECT count(*)::text AS n FROM accounts');
      expect(rows[0]?.n, 'no account was created').toBe('0');
    } finally {
      await storage.db.close();
    }
    const later = await serve(['--port', '0', '--data', data, '--no-samples']);
    later.child.kill('SIGTERM');
    await later.exited;
    expect(later.stderr(), 'the next start that listens creates the admin and prints its password').toMatch(/^ {2}password: \S+$/m);
  });
});
