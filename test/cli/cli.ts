/** Runs the built CLI (`node dist/src/cli/main.js`) as a real child process. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'dist', 'src', 'cli', 'main.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `env` replaces the environment when given (e.g. a PATH without some program). */
export function start(args: string[], env?: NodeJS.ProcessEnv): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(env === undefined ? {} : { env }) });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<CliResult>((resolvePromise) => {
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

export function cli(args: string[], env?: NodeJS.ProcessEnv): Promise<CliResult> {
  return start(args, env).done;
}
