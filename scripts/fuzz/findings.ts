/**
 * Saves offenders: the input as it was run, and a JSON note beside it saying what happened and
 * how to reproduce it. A few per signature are kept; the rest are only counted.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Target } from './inputs.js';
import type { Finding } from './run.js';

/** The extension tells `--replay` which front door an input goes to. */
export const EXTENSIONS: Record<Target, string> = { html: '.html', envelope: '.envelope.json', wikitext: '.wikitext' };

export function targetOfFile(path: string): Target | undefined {
  for (const [target, ext] of Object.entries(EXTENSIONS) as [Target, string][]) if (path.endsWith(ext)) return target;
  return undefined;
}

export class FindingsDir {
  constructor(
    private readonly dir: string,
    private readonly seed: number,
    private readonly keepPerSignature = 3,
  ) {}

  /** Writes the input and its note; returns the input's path, or undefined when not kept. */
  save(finding: Finding): string | undefined {
    if (finding.occurrence > this.keepPerSignature) return undefined;
    mkdirSync(this.dir, { recursive: true });
    const index = finding.input.index < 0 ? `baseline${-finding.input.index}` : String(finding.input.index);
    const base = join(this.dir, `${finding.kind}-${this.seed}-${index}`);
    const inputPath = base + EXTENSIONS[finding.input.target];
    writeFileSync(inputPath, finding.input.text);
    const shown = relative(process.cwd(), inputPath);
    const note = {
      kind: finding.kind,
      signature: finding.signature,
      target: finding.input.target,
      seed: this.seed,
      index: finding.input.index,
      chars: finding.input.text.length,
      recipe: finding.input.recipe,
      outcome: finding.outcome,
      ...(finding.expectedMs === undefined ? {} : { expectedMs: Math.round(finding.expectedMs) }),
      reproduce: `npm run fuzz -- --replay '${shown}'`,
      regenerate: finding.input.index < 0 ? undefined : `npm run fuzz -- --seed ${this.seed} --index ${finding.input.index}`,
    };
    writeFileSync(`${base}.note.json`, `${JSON.stringify(note, null, 2)}\n`);
    return inputPath;
  }
}
