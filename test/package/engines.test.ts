/**
 * `engines.node` tells the truth: exactly the Node versions every runtime dependency (the whole
 * tree npm installs for a user, dev dependencies left out) declares it supports — no version a
 * dependency refuses, and none left out that they all accept.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from './install.js';

/** semver is installed as a runtime dependency of fastify (and npm's own range language); no @types for it here. */
const semver = createRequire(import.meta.url)('semver') as {
  satisfies: (version: string, range: string) => boolean;
  validRange: (range: string) => string | null;
};

function nodeRange(dir: string): string | undefined {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { engines?: { node?: unknown } };
  return typeof pkg.engines?.node === 'string' ? pkg.engines.node : undefined;
}

describe('package.json engines.node', { timeout: 60_000 }, () => {
  it('is the intersection of what the runtime dependency tree declares (every minor of Node 16–30)', async () => {
    const ours = nodeRange(ROOT)!;
    expect(semver.validRange(ours), `"${ours}" is a valid range`).not.toBeNull();
    const { stdout } = await promisify(execFile)('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    const dirs = stdout.split('\n').filter((line) => line !== '' && line !== ROOT.replace(/\/$/, ''));
    expect(dirs.length, 'the runtime tree was listed').toBeGreaterThan(20);
    const declared = dirs.flatMap((dir) => {
      const range = nodeRange(dir);
      return range === undefined ? [] : [{ dir: dir.slice(ROOT.length), range }];
    });

    const disagreements: string[] = [];
    for (let major = 16; major <= 30; major++) {
      for (let minor = 0; minor <= 30; minor++) {
        const version = `${major}.${minor}.0`;
        const refusing = declared.filter((d) => !semver.satisfies(version, d.range));
        const weAccept = semver.satisfies(version, ours);
        if (weAccept && refusing.length > 0) disagreements.push(`${version}: accepted, but ${refusing[0]!.dir} declares ${refusing[0]!.range}`);
        if (!weAccept && refusing.length === 0) disagreements.push(`${version}: refused, though every dependency accepts it`);
      }
    }
    expect(disagreements, `versions where "${ours}" and the dependencies disagree`).toEqual([]);
  });
});
