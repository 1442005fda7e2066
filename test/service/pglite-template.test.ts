/**
 * The embedded database's template (src/service/storage/pglite-template.ts): `npm run build`
 * packs initdb's output with the migrations applied; a new data directory is unpacked from it,
 * private (directories 0700, files 0600), and opens as a database on which the migrations run (a
 * template older than the migrations gets the newer ones then); an entry that would land
 * outside the target is skipped; a half-unpacked directory is never left where a database is
 * looked for.
 */
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, describe, expect, test } from 'vitest';
import { migrate } from '../../src/service/storage/migrate.js';
import { openPglite } from '../../src/service/storage/pglite.js';
import { MIGRATIONS } from '../../src/service/storage/migrations.js';
import { findTemplate, unpackTemplate } from '../../src/service/storage/pglite-template.js';
import { buildPgliteTemplates } from '../../scripts/build-pglite-template.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wikistruct-template-'));
  dirs.push(dir);
  return dir;
}

/** Every path under `dir` with its mode bits. */
function modes(dir: string): { path: string; dir: boolean; mode: number }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).map((e) => {
    const path = join(e.parentPath, e.name);
    return { path, dir: e.isDirectory(), mode: statSync(path).mode & 0o777 };
  });
}

async function writeTar(path: string, entries: { name: string; body?: string }[]): Promise<void> {
  const pack = tar.pack();
  for (const e of entries) {
    if (e.body === undefined) pack.entry({ name: e.name, type: 'directory' });
    else pack.entry({ name: e.name }, e.body);
  }
  pack.finalize();
  const out = createWriteStream(path);
  await pipeline(pack, createGzip(), out);
  if (!out.closed) await once(out, 'close');
}

describe('the PGlite template', () => {
  const template = findTemplate();

  test.skipIf(template === undefined)('the build made one for the installed PGlite', () => {
    expect(template, 'dist/pglite/template-<version>.tar.gz (npm run build)').toMatch(/template-[\d.]+\.tar\.gz$/);
  });

  test.skipIf(template === undefined)('a new data directory is unpacked private, opens, and migrates', async () => {
    const data = join(scratch(), 'pglite');
    const db = await openPglite(data);
    try {
      const all = modes(data);
      expect(all.some((e) => e.path.endsWith('PG_VERSION')), 'a data directory').toBe(true);
      const open = all.filter((e) => e.mode & 0o077).map((e) => e.path);
      // PGlite may add files of its own once running (0666, inside the 0700 directory); what the
      // template brought is private.
      expect(open.filter((p) => /PG_VERSION|postgresql\.conf|pg_hba\.conf|global\/pg_control$/.test(p)), 'the unpacked files are 0600').toEqual([]);
      expect(statSync(data).mode & 0o777, 'the directory is 0700').toBe(0o700);
      expect(existsSync(`${data}.unpacking`), 'nothing left beside it').toBe(false);
      await migrate(db);
      expect(await db.query<{ n: number }>('SELECT 1 AS n'), 'queries run').toEqual([{ n: 1 }]);
    } finally {
      await db.close();
    }
  });

  test.skipIf(template === undefined)('the template holds the migrations; one older than them is migrated on open', async () => {
    const data = join(scratch(), 'pglite');
    const db = await openPglite(data);
    try {
      expect(await migrate(db), 'the build applied every migration').toEqual([]);
    } finally {
      await db.close();
    }
    // A template built before the newest migration existed (a source tree changed since its build).
    const older = scratch();
    const built = await buildPgliteTemplates({ outdir: older, migrations: MIGRATIONS.slice(0, -1), samples: undefined });
    expect(built.samples, 'no samples asked for').toBeUndefined();
    const stale = join(scratch(), 'pglite');
    await unpackTemplate(built.plain, stale);
    const old = await openPglite(stale);
    try {
      expect(await migrate(old), 'the newest migration is applied').toEqual([MIGRATIONS.at(-1)!.id]);
      expect(await migrate(old), 'and only once').toEqual([]);
    } finally {
      await old.close();
    }
  }, 120_000);
});

// Its small files are written in the background, at most a few at once (FileWrites): every one
// lands whole, and a failed one fails the unpacking as a synchronous write did.
describe('unpacking', () => {
  const unpack = unpackTemplate;
  test('entries naming a path outside the target are skipped; the rest is unpacked 0700/0600', async () => {
    const dir = scratch();
    const archive = join(dir, 'evil.tar.gz');
    await writeTar(archive, [
      { name: 'PG_VERSION', body: '18\n' },
      { name: 'base' },
      { name: 'base/1/112', body: 'page' },
      { name: '../escaped', body: 'x' },
      { name: '/abs/../../escaped-too', body: 'x' },
    ]);
    const target = join(dir, 'data');
    await unpack(archive, target);
    expect(existsSync(join(dir, 'escaped')), 'nothing written above the target').toBe(false);
    expect(existsSync(join(dir, 'escaped-too')), 'nor through an absolute name').toBe(false);
    expect(modes(target).map((e) => [e.path.slice(target.length + 1), e.mode.toString(8)]).sort(), 'private modes').toEqual([
      ['PG_VERSION', '600'],
      ['base', '700'],
      ['base/1', '700'],
      ['base/1/112', '600'],
    ]);
  });

  test('an archive without PG_VERSION is refused and leaves nothing behind', async () => {
    const dir = scratch();
    const archive = join(dir, 'empty.tar.gz');
    await writeTar(archive, [{ name: 'base/1/112', body: 'page' }]);
    const target = join(dir, 'data');
    await expect(unpack(archive, target)).rejects.toThrow(/not a PostgreSQL data directory/);
    expect(existsSync(target), 'no data directory').toBe(false);
    expect(existsSync(`${target}.unpacking`), 'no partial one').toBe(false);
  });

  test('an existing data directory is never overwritten', async () => {
    const dir = scratch();
    const archive = join(dir, 'a.tar.gz');
    await writeTar(archive, [{ name: 'PG_VERSION', body: '18\n' }]);
    const target = join(dir, 'data');
    mkdirSync(target);
    writeFileSync(join(target, 'PG_VERSION'), '17\n');
    await expect(unpack(archive, target), 'not renamed onto a directory that holds files').rejects.toThrow();
    expect(readFileSync(join(target, 'PG_VERSION'), 'utf8'), 'its files untouched').toBe('17\n');
  });

  test('many files, in nested directories, each with its own bytes (more than are written at once)', async () => {
    const dir = scratch();
    const archive = join(dir, 'many.tar.gz');
    const entries = [{ name: 'PG_VERSION', body: '18\n' }];
    for (let i = 0; i < 120; i++) entries.push({ name: `base/${i % 7}/sub${i % 3}/${i}`, body: `file ${i} `.repeat(1 + (i % 50)) });
    await writeTar(archive, entries);
    const target = join(dir, 'data');
    await unpack(archive, target);
    for (const e of entries) expect(readFileSync(join(target, e.name), 'utf8'), e.name).toBe(e.body);
    expect(modes(target).filter((e) => !e.dir)).toHaveLength(entries.length);
  });

  test('a file that cannot be written fails the unpacking, with its code, and leaves nothing behind', async () => {
    const dir = scratch();
    const archive = join(dir, 'twice.tar.gz');
    // The same name twice: files are created exclusively (wx), so the second write fails.
    const entries = [{ name: 'PG_VERSION', body: '18\n' }];
    for (let i = 0; i < 40; i++) entries.push({ name: `base/1/${i}`, body: 'page' });
    entries.push({ name: 'base/1/7', body: 'again' });
    for (let i = 40; i < 60; i++) entries.push({ name: `base/1/${i}`, body: 'page' });
    await writeTar(archive, entries);
    const target = join(dir, 'data');
    await expect(unpack(archive, target)).rejects.toMatchObject({ code: 'EEXIST' });
    expect(existsSync(target), 'no data directory').toBe(false);
    expect(existsSync(`${target}.unpacking`), 'no partial one').toBe(false);
  });
});
