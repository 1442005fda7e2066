/**
 * vitest's global setup: refuses to run the tests when dist/ is older than the sources (see
 * dist-freshness.ts), with the files named, instead of letting suites that run dist/ pass on old
 * code. `npm test` builds first; after an edit, run `npm run build` (or the tsc/esbuild step the
 * message names) before a bare `npx vitest`, or set WIKISTRUCT_ALLOW_STALE_DIST=1 for suites that never
 * touch dist/.
 */
import { fileURLToPath } from 'node:url';
import { staleSources } from './dist-freshness.js';

/** Set to 1 to run anyway, for suites that never touch dist/ (the engine's, the schema's). */
const ALLOW = 'WIKISTRUCT_ALLOW_STALE_DIST';

export default function setup(): void {
  if (process.env[ALLOW] === '1') return;
  const stale = staleSources(fileURLToPath(new URL('../../', import.meta.url)));
  if (stale.length === 0) return;
  const shown = stale.slice(0, 8).join(', ') + (stale.length > 8 ? `, and ${stale.length - 8} more` : '');
  throw new Error(
    `dist/ is older than ${stale.length} source file(s): ${shown}. Suites that run the built code (the CLI, worker threads, ` +
      `the explorer bundle, the package) would test the old code. Run \`npm run build\` first (\`npm test\` does), or set ${ALLOW}=1 ` +
      'to run suites that never touch dist/.',
  );
}
