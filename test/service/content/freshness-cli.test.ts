/**
 * `wikistruct serve --max-age` and `--follow`: bad values and contradictory flags are refused
 * naming the flag (exit 2, read in process), and, as a real process, `--follow --follow-url`
 * connects to the stream it names, with the operator's User-Agent, then stops on SIGTERM.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { FakeWiki } from '../../support/fake-wiki.js';
import { run as runServe } from '../../../src/cli/serve.js';
import { serve } from '../../support/cli.js';
import { templateDir } from '../helpers/backends.js';

// The served case starts a process through tsx: tens of seconds on a loaded machine.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

describe('serve --max-age and --follow', () => {
  let data: string;
  let wiki: FakeWiki;

  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), 'wikistruct-follow-cli-'));
    cpSync(await templateDir(), join(data, 'pglite'), { recursive: true });
    wiki = await FakeWiki.start();
  });
  afterAll(async () => {
    await wiki?.close();
    rmSync(data, { recursive: true, force: true });
  });

  test('refused, naming the flag: a bad duration, --follow with --offline, --follow-url alone or not a URL', async () => {
    const cases: [string[], string][] = [
      [['--max-age', '3 weeks'], 'wikistruct serve: --max-age takes a duration: a whole number of seconds, or with a unit (90s, 30m, 12h, 7d); got "3 weeks"\n'],
      [['--max-age=-5'], 'wikistruct serve: --max-age takes a duration: a whole number of seconds, or with a unit (90s, 30m, 12h, 7d); got "-5"\n'],
      [['--follow', '--offline'], 'wikistruct serve: --follow needs the wiki, and --offline makes no outbound requests: choose one\n'],
      [['--follow-url', wiki.streamUrl], 'wikistruct serve: --follow-url names the stream --follow reads: add --follow\n'],
      [['--follow', '--follow-url', 'ftp://example.test/stream'], 'wikistruct serve: --follow-url must be an http:// or https:// URL\n'],
    ];
    // In process: `serve`'s own argument reading, refused before anything starts.
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      for (const [args, message] of cases) {
        written.length = 0;
        const code = await runServe(['--data', data, ...args]);
        expect([code, written.join('')], args.join(' ')).toEqual([2, message]);
      }
    } finally {
      stderr.mockRestore();
    }
  });

  test('--follow --follow-url: the server follows that stream, with the operator in its User-Agent', async () => {
    const server = await serve(['--port', '0', '--data', data, '--no-samples', '--max-age', '12h', '--follow', '--follow-url', wiki.streamUrl], {
      env: { WIKISTRUCT_CONTACT: 'ops@example.test' },
    });
    try {
      await wiki.streaming(1);
      expect(wiki.streamConnections[0]?.userAgent, 'the operator is named').toContain('ops@example.test');
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited, 'stops cleanly, the stream closed').toBe(0);
  });
});
