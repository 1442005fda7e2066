/**
 * The package as a user gets it, without network: `npm pack` of the built repository, unpacked
 * into an empty project's `node_modules/wikistruct` as npm would install it.
 *
 * Only the dependencies package.json declares are linked into the project (each to this
 * repository's installed copy), so a module the package imports without declaring it fails here
 * as it would for a user. Their own dependencies resolve from the repository, because Node
 * follows a symlink to its real path before resolving what the linked package imports.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { z } from 'zod';

const run = promisify(execFile);

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const PackageJsonSchema = z.object({
  name: z.string(),
  version: z.string(),
  dependencies: z.record(z.string(), z.string()),
  bin: z.record(z.string(), z.string()),
});
export const PACKAGE = PackageJsonSchema.parse(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')));

/** What `npm pack --json` reports about the tarball (the fields used here). */
const PackReportSchema = z.array(
  z.object({ filename: z.string(), files: z.array(z.object({ path: z.string(), mode: z.number() })) }),
).length(1);

export interface Installed {
  /** The temporary directory holding the tarball and the project: remove it when done. */
  root: string;
  /** The consumer project: `package.json` and `node_modules/` with wikistruct in it. */
  project: string;
  /** Every path in the tarball, relative to the package root. */
  files: string[];
  /** The `wikistruct` command as npm links it: `node_modules/.bin/wikistruct`. */
  bin: string;
}

export async function packAndInstall(): Promise<Installed> {
  if (!existsSync(join(ROOT, 'dist/src/index.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  const dir = mkdtempSync(join(tmpdir(), 'wikistruct-package-'));
  // --ignore-scripts: pretest has built dist/; the test packs what is there, as `npm publish` would.
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT });
  const [report] = PackReportSchema.parse(JSON.parse(stdout));

  const project = join(dir, 'project');
  const modules = join(project, 'node_modules');
  mkdirSync(modules, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run('tar', ['-xzf', join(dir, report!.filename), '-C', modules]);
  renameSync(join(modules, 'package'), join(modules, PACKAGE.name));

  for (const dependency of Object.keys(PACKAGE.dependencies)) {
    const link = join(modules, dependency);
    mkdirSync(dirname(link), { recursive: true }); // scoped names: node_modules/@scope/name
    symlinkSync(join(ROOT, 'node_modules', dependency), link, 'dir');
  }

  // What npm's bin-links does on install: link the command, make its target executable.
  const [command, target] = Object.entries(PACKAGE.bin)[0]!;
  const bin = join(modules, '.bin', command);
  mkdirSync(dirname(bin), { recursive: true });
  symlinkSync(join('..', PACKAGE.name, target), bin);
  chmodSync(join(modules, PACKAGE.name, target), 0o755);

  return { root: dir, project, files: report!.files.map((f) => f.path), bin };
}
