/**
 * Runs the CLI from its TypeScript sources as a real child process, the way a user runs
 * `wikistruct <command>`, and collects what it printed.
 */
import { spawn } from 'node:child_process';
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
