/**
 * The README's curl session, read from the README itself, so that the test runs exactly what a
 * new user copies: the fenced `sh` block that logs in with curl. Each step is one shell command
 * (continuation lines joined) with the `# …` line that follows it as its expected output, where
 * `…` stands for any text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli.js';

export interface SessionStep {
  command: string;
  /** The documented output, `…` matching anything; undefined for a step the README shows without one. */
  expected: string | undefined;
}

export function readmeSession(readme = readFileSync(join(ROOT, 'README.md'), 'utf8')): SessionStep[] {
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  const block = blocks.find((b) => b.includes('/v1/login') && b.includes('curl'));
  if (block === undefined) throw new Error('README.md has no sh block with the curl session');
  const steps: SessionStep[] = [];
  let pending = '';
  for (const line of block.split('\n')) {
    if (pending !== '') {
      pending += ` ${line.trim()}`;
      if (!line.endsWith('\\')) {
        steps.push({ command: pending.replace(/\s*\\ /g, ' '), expected: undefined });
        pending = '';
      }
      continue;
    }
    if (line.startsWith('# ')) {
      const last = steps.at(-1);
      if (last !== undefined && last.expected === undefined) last.expected = line.slice(2);
      continue;
    }
    if (line.trim() === '') continue;
    if (line.endsWith('\\')) pending = line;
    else steps.push({ command: line, expected: undefined });
  }
  return steps;
}

/** The documented output as a pattern: literal text, `…` for anything. */
export function outputPattern(expected: string): RegExp {
  const parts = expected.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[\\s\\S]*')}$`);
}
