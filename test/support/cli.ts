/**
 * Runs the CLI from its TypeScript sources as a real child process, the way a user runs
 * `wikistruct <command>`, and collects what it printed.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const MAIN = join(ROOT, 'src/cli/main.ts');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `env` is merged over the test process's environment, with DATABASE_URL cleared so that a
 * developer's database is never touched unless a test names one.
 */
export function wikistruct(args: string[], options: { env?: NodeJS.ProcessEnv; stdin?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

export interface Serving {
  process: ChildProcessWithoutNullStreams;
  /** The address `serve` announced. */
  url: string;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
  /** Everything it printed so far, both streams. */
  output(): string;
}

/**
 * `wikistruct serve ARGS` as a real child process (`nodeArgs` go to node, e.g. a heap limit),
 * resolved once it announces its address; rejected if it exits first. DATABASE_URL is cleared.
 */
export function serve(args: string[], options: { nodeArgs?: string[] } = {}): Promise<Serving> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', MAIN, 'serve', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const match = /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (match?.[1] !== undefined) resolve({ process: child, url: match[1], exited, output: () => out });
    });
    child.on('close', () => reject(new Error(`serve exited early: ${out}`)));
  });
}
