/**
 * Builds the explorer page into dist/explorer: src/explorer/main.ts and everything it imports
 * (the renderers, and the engine's own HTML tree builder, which the source pane shares) bundled
 * by esbuild into one ES module, plus the page and its two stylesheets. No CDN, nothing fetched:
 * the page works offline. `npm run build` runs it after tsc; the server reads the result at start.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = join(ROOT, 'src/explorer');
const STATIC = ['index.html', 'app.css', 'source.css'] as const;

/** Writes the explorer to `outdir` (default dist/explorer), replacing what was there. */
export async function buildExplorer(outdir: string = join(ROOT, 'dist/explorer')): Promise<string> {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: [join(SOURCES, 'main.ts')],
    outfile: join(outdir, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    // What the page's features need anyway (CSS.escape, <dialog>-era DOM); older browsers are not served.
    target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const file of STATIC) copyFileSync(join(SOURCES, file), join(outdir, file));
  return outdir;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outdir = await buildExplorer(process.argv[2] === undefined ? undefined : resolve(process.argv[2]));
  console.log(`explorer built into ${outdir}`);
}
