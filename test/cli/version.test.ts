/** `wikistruct --version`: the version of the package the command belongs to, alone on one line. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cli } from './cli.js';

const VERSION = (JSON.parse(readFileSync(join(CLI, '../../../../package.json'), 'utf8')) as { version: string }).version;

describe('wikistruct --version', { timeout: 30_000 }, () => {
  it.each([['--version'], ['-v'], ['-V']])('%s prints the package version and exits 0', async (flag) => {
    const result = await cli([flag]);
    expect(result.code, 'exit code').toBe(0);
    expect(result.stdout, 'the version alone').toBe(`${VERSION}\n`);
    expect(result.stderr, 'nothing on stderr').toBe('');
  });

  it('--help lists it', async () => {
    const result = await cli(['--help']);
    expect(result.stdout, 'usage line').toContain('wikistruct --version');
  });
});
