/**
 * What the distributed-conversion tests need: the local Redis (skipped with one line when it is
 * unreachable outside CI; under CI its absence fails, as for PostgreSQL in the service tests), a
 * private redis-server on a free port that a test may kill and restart, long-running CLI
 * processes whose stderr can be awaited, and inputs with a bad record among many good ones.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { MAIN, ROOT } from '../../support/cli.js';
import { testRedisUnreachable, TEST_REDIS_URL, whyUnreachable } from '../../support/redis.js';
import { articleHtml, envelope, ndjson } from '../fixtures.js';

export const REDIS_URL = TEST_REDIS_URL;

const why = await testRedisUnreachable();
if (why !== undefined) console.warn(`skipping distributed-conversion tests: Redis at ${REDIS_URL} is unreachable (${why})`);
export const redisMissing = why !== undefined;

export function uniqueQueue(label: string): string {
  return `wikistruct-test-${label}-${process.pid}-${Date.now().toString(36)}`;
}

/** Removes every key of the queue (its jobs, events, meta). */
export async function dropQueue(url: string, name: string): Promise<void> {
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  const queue = new Queue(name, { connection });
  try {
    await queue.obliterate({ force: true });
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

export class CliProcess {
  readonly child: ChildProcess;
  stderr = '';
  stdout = '';
  readonly exited: Promise<number | null>;
  private waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];

  constructor(args: string[], env: NodeJS.ProcessEnv = {}) {
    this.child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (c: Buffer) => (this.stdout += c.toString()));
    this.child.stderr!.on('data', (c: Buffer) => {
      this.stderr += c.toString();
      this.check();
    });
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }

  /** Resolves when stderr matches (already, or later). */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
    return new Promise((resolve) => {
      this.waiters.push({ pattern, resolve });
      this.check();
    });
  }

  kill(signal: NodeJS.Signals): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }

  private check(): void {
    this.waiters = this.waiters.filter((w) => {
      const m = this.stderr.match(w.pattern);
      if (m !== null) w.resolve(m);
      return m === null;
    });
  }
}

export function worker(queue: string, redisUrl: string, env: NodeJS.ProcessEnv = {}): CliProcess {
  const args = ['worker', '--queue', redisUrl, '--queue-name', queue, '-j', '1', '--lock-duration', '1', '--stalled-interval', '0.5', '--max-stalled', '3'];
  return new CliProcess(args, env);
}

/** A private redis-server (no persistence: a restart loses every job) on a free port. */
export class PrivateRedis {
  private process: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.restart();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async restart(): Promise<void> {
    this.process = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (;;) {
      if ((await whyUnreachable(this.url)) === undefined) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async kill(): Promise<void> {
    const child = this.process;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  }
}

export const redisServerAvailable = await new Promise<boolean>((resolve) => {
  const probe = spawn('redis-server', ['--version'], { stdio: 'ignore' });
  probe.on('error', () => resolve(false));
  probe.on('exit', (code) => resolve(code === 0));
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Three NDJSON files (one with a malformed line and a blank one) and a directory of HTML pages:
 * with a small --shard-size the large files are cut into line ranges and the pages grouped.
 */
export function writeInputs(dir: string): string[] {
  const a = Array.from({ length: 40 }, (_, i) => envelope(`Alpha ${i}`, i + 1, 4));
  const aText = ndjson(a).split('\n');
  aText.splice(9, 0, '{"name": broken');
  aText.splice(20, 0, '');
  writeFileSync(join(dir, 'a.ndjson'), aText.join('\n'));
  writeFileSync(join(dir, 'b.ndjson'), ndjson(Array.from({ length: 25 }, (_, i) => envelope(`Beta ${i}`, 100 + i, 4))));
  mkdirSync(join(dir, 'pages'));
  for (let i = 0; i < 6; i++) writeFileSync(join(dir, 'pages', `Page_${i}.html`), articleHtml(`Page ${i}`, 3));
  writeFileSync(join(dir, 'c.ndjson'), ndjson(Array.from({ length: 12 }, (_, i) => envelope(`Gamma ${i}`, 200 + i, 4))));
  return ['a.ndjson', 'pages', 'b.ndjson', 'c.ndjson'].map((name) => join(dir, name));
}
