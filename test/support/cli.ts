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
  child: ChildProcessWithoutNullStreams;
  /** The address `serve` announced. */
  url: string;
  /** What it printed so far on each stream. */
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
}

/**
 * `wikistruct serve ARGS` as a real child process, resolved once it announces where it listens;
 * rejected if it exits first. `env` is merged over the test process's environment, with
 * DATABASE_URL cleared (as `wikistruct` does); `nodeArgs` go to node, e.g. a heap limit.
 */
export function serve(args: string[], options: { env?: NodeJS.ProcessEnv; nodeArgs?: string[] } = {}): Promise<Serving> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', MAIN, 'serve', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const url = /"url":"(http:\/\/[^"]+)","storage"/.exec(out)?.[1];
      if (url !== undefined) resolve({ child, url, stdout: () => out, stderr: () => err, exited });
    });
    void exited.then(() => reject(new Error(`serve exited early:\n${out}\n${err}`)));
  });
}
