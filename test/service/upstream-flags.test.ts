/**
 * `wikistruct serve --upstream PROJECT=URL`, `--upstreams-file` and `WIKISTRUCT_UPSTREAMS` as a
 * user runs them: a mapping that cannot be read stops the server before it opens anything, with
 * exit code 2 and a message naming the mapping and its source. (What a readable mapping does is
 * test/service/content/upstreams.test.ts.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { wikistruct } from '../support/cli.js';

// Each run starts the CLI from its sources (tsx): seconds each on a loaded machine.
vi.setConfig({ testTimeout: 240_000 });

const dir = mkdtempSync(join(tmpdir(), 'wikistruct-upstream-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('serve: configured upstreams that cannot be read', () => {
  test('a flag, a file line and the variable: exit 2, the mapping and its source named', async () => {
    const file = join(dir, 'upstreams.txt');
    writeFileSync(file, '# ours\ncompanywiki=https://wiki.example.org\ndocs\n');
    // At once: four independent processes.
    const [flag, fromFile, missing, env] = await Promise.all([
      wikistruct(['serve', '--data', join(dir, 'a'), '--upstream', 'companywiki=wiki.example.org']),
      wikistruct(['serve', '--data', join(dir, 'b'), '--upstreams-file', file]),
      wikistruct(['serve', '--data', join(dir, 'c'), '--upstreams-file', join(dir, 'none.txt')]),
      wikistruct(['serve', '--data', join(dir, 'd')], { env: { WIKISTRUCT_UPSTREAMS: 'companywiki=https://wiki.example.org, Bad=https://x.example.org' } }),
    ]);
    expect([flag.code, flag.stderr.trim()]).toEqual([2, 'wikistruct serve: --upstream: companywiki: "wiki.example.org" is not a URL (e.g. https://wiki.example.org)']);
    expect([fromFile.code, fromFile.stderr.trim()]).toEqual([2, `wikistruct serve: ${file}: "docs" is not PROJECT=URL (e.g. companywiki=https://wiki.example.org)`]);
    expect([missing.code, missing.stderr.trim()]).toEqual([2, `wikistruct serve: --upstreams-file: cannot read ${join(dir, 'none.txt')}: ENOENT`]);
    expect([env.code, env.stderr.trim()]).toEqual([2, 'wikistruct serve: WIKISTRUCT_UPSTREAMS: "Bad" is not a project code (lower-case letters, digits and _, starting with a letter, e.g. companywiki)']);
  });

  test('--help names the flags and the variable', async () => {
    const help = await wikistruct(['serve', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--upstream PROJECT=URL');
    expect(help.stdout).toContain('--upstreams-file FILE');
    expect(help.stdout).toContain('WIKISTRUCT_UPSTREAMS');
  });
});
