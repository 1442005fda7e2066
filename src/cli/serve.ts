/**
 * `wikistruct serve`: the HTTP service (auth under /v1, the content API under /v2) on one port.
 * Configuration by flags, secrets and connection strings by environment (they must not show up
 * in `ps`).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';
import { createLogger } from '../service/logger.js';
import { catchSignals, defaultDataDir, startOpeningStore } from '../service/serve-start.js';
import { startMark } from '../service/start-trace.js';
import type { OpenedStore } from '../service/serve-start.js';
import { KeySecretError, MIN_KEY_SECRET_CHARS } from '../service/auth/key-secret.js';
import { SharedDataDirError } from '../service/storage/data-dir.js';
import { DataDirLockedError } from '../service/storage/lock.js';
import { mergeUpstreams, parseUpstream, parseUpstreamList, UpstreamConfigError, type UpstreamOrigin } from '../service/content/upstream/origins.js';
import { duration, type DurationRule } from './flags.js';
import { readOptions } from './run.js';
import { WIKIMEDIA_PAGE_CHANGES } from '../service/content/follow.js';

/** --max-age: 0 revalidates on every request; a bare number is seconds. */
const MAX_AGE: DurationRule = { bareSeconds: true, minMs: 0, off: false, examples: '90s, 30m, 12h, 7d' };
/** --snapshots-every: at least a minute (a build takes that long on a real project), or off. */
const SNAPSHOTS_EVERY: DurationRule = { bareSeconds: false, minMs: 60_000, off: true, examples: '30m, 24h, 7d' };

/** A duration flag read by flags.ts `duration`, its UsageError a zod issue (the schema reports it). */
const durationFlag = (flag: string, rule: DurationRule) =>
  z.string().transform((text, ctx) => {
    try {
      return { ms: duration(flag, text, rule) };
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });

const HELP = `usage: wikistruct serve [--host H] [--port N] [--data DIR] [--only auth|content] [--offline] [--no-samples]
                        [--max-age DURATION] [--follow [--follow-url URL]] [--allow-shared-data-dir]
                        [--trust-proxy ADDRESSES] [--upstream PROJECT=URL]... [--upstreams-file FILE]
                        [--snapshots-every INTERVAL]

  --host       address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
  --port       TCP port (default 8080)
  --data       data directory: embedded database, mail outbox (default $WIKISTRUCT_DATA or ./data)
  --only       serve only the auth routes (/v1) or only the content routes (/v2); default both
  --offline    the content API makes no outbound requests
  --no-samples do not seed an empty embedded store with the shipped sample articles
  --max-age    a stored article last confirmed by its wiki longer ago than this is still served at
               once, and revalidated in the background (default 24h; 0: on every request; a number
               of seconds, or with a unit: 90s, 30m, 12h, 7d). Never with --offline
  --follow     follow the wiki's stream of page changes and refresh each changed stored article
               within seconds (not with --offline)
  --follow-url the stream --follow reads (default
               ${WIKIMEDIA_PAGE_CHANGES})
  --allow-shared-data-dir
               start even though other accounts can reach the data directory (it must be
               0700 and yours) or the key secret file (0600): only when something else keeps
               them out (docs/security.md)
  --trust-proxy
               comma-separated addresses or CIDR ranges of the reverse proxies in front of the
               service (e.g. 127.0.0.1,10.0.0.0/8): a request from one of them counts as coming
               from the client its X-Forwarded-For names (login throttles, rate limits, logs).
               Only for proxies that overwrite X-Forwarded-For. Default: none
  --upstream PROJECT=URL
               fetch PROJECT's articles from the MediaWiki at URL (its origin, REST API at
               /w/rest.php; or the URL of its rest.php); repeatable. A code no Wikimedia wiki
               has is listed in /v2/projects as the wiki names itself (default: each Wikimedia
               project from https://<its host>; docs/content-service.md)
  --upstreams-file FILE
               more PROJECT=URL mappings, one a line (# starts a comment); --upstream wins
  --snapshots-every
               build the snapshots (structured and regular) in the background this often:
               30m, 24h, 7d (default 24h); also on start when some are missing and after an
               import into this server; "off": only \`wikistruct snapshot build\` builds them

environment:
  DATABASE_URL        use this PostgreSQL server instead of the embedded database; any number of
                      serve processes on it act as one (shared limits, pushed revocations)
  REDIS_URL           redis://HOST:PORT[/DB]: keep rate limits and throttles in Redis and push
                      revocations and article writes over Redis pub/sub (docs/scale-out.md)
  SMTP_URL            send mail through this SMTP server (default: .eml files in <data>/outbox)
  MAIL_FROM           sender of the service's mails
  WIKISTRUCT_ISSUER   "iss" of the tokens (default "wikistruct")
  WIKISTRUCT_KEY_SECRET
                      at least 32 characters the token signing keys are sealed under in the
                      database; the same on every process of one database (default: the
                      <data>/key-secret file, made on first start)
  LOG_LEVEL           pino level (default info)
  WIKISTRUCT_UPSTREAMS
                      PROJECT=URL mappings separated by spaces or commas, as --upstream; the
                      flags and the file win for a project they also name
`;

const OptionsSchema = z.object({
  host: z.string().min(1),
  port: z.coerce.number().int('--port must be an integer').min(0).max(65535, '--port must be at most 65535'),
  data: z.string().min(1).optional(),
  only: z.enum(['auth', 'content'], { message: '--only must be "auth" or "content"' }).optional(),
  offline: z.boolean(),
  'no-samples': z.boolean(),
  'max-age': durationFlag('--max-age', MAX_AGE).optional(),
  follow: z.boolean(),
  'follow-url': z.url({ protocol: /^https?$/, message: '--follow-url must be an http:// or https:// URL' }).optional(),
  'allow-shared-data-dir': z.boolean(),
  'trust-proxy': z
    .string()
    .transform((list) => list.split(',').map((item) => item.trim()).filter((item) => item.length > 0))
    .refine((items) => items.length > 0, '--trust-proxy needs at least one address')
    .superRefine((items, ctx) => {
      const bad = items.find((item) => !isAddressOrRange(item));
      if (bad !== undefined) ctx.addIssue({ code: 'custom', message: `--trust-proxy: "${bad}" is not an IP address or CIDR range (like 10.0.0.0/8)` });
    })
    .optional(),
  upstream: z.array(z.string()).default([]),
  'upstreams-file': z.string().min(1, '--upstreams-file names a file').optional(),
  'snapshots-every': durationFlag('--snapshots-every', SNAPSHOTS_EVERY),
  help: z.boolean(),
});

const EnvSchema = z.object({
  DATABASE_URL: z.string().min(1).optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional(),
  SMTP_URL: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(1).optional(),
  WIKISTRUCT_ISSUER: z.string().min(1).optional(),
  WIKISTRUCT_KEY_SECRET: z.string().min(MIN_KEY_SECRET_CHARS, `must be at least ${MIN_KEY_SECRET_CHARS} characters (make one with \`openssl rand -base64 32\`)`).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export async function run(argv: string[]): Promise<number> {
  // serve takes no operands: a stray argument is bad usage, as an unknown flag is.
  const parsed = readOptions('serve', HELP, argv, {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '8080' },
    data: { type: 'string' },
    only: { type: 'string' },
    offline: { type: 'boolean', default: false },
    'no-samples': { type: 'boolean', default: false },
    'max-age': { type: 'string' },
    follow: { type: 'boolean', default: false },
    'follow-url': { type: 'string' },
    'allow-shared-data-dir': { type: 'boolean', default: false },
    'trust-proxy': { type: 'string' },
    upstream: { type: 'string', multiple: true },
    'upstreams-file': { type: 'string' },
    'snapshots-every': { type: 'string', default: '24h' },
    help: { type: 'boolean', short: 'h', default: false },
  }, OptionsSchema, { allowPositionals: false });
  if (typeof parsed === 'number') return parsed;
  const options = parsed.values;
  if (options.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (options.follow && options.offline) {
    process.stderr.write('wikistruct serve: --follow needs the wiki, and --offline makes no outbound requests: choose one\n');
    return 2;
  }
  if (options['follow-url'] !== undefined && !options.follow) {
    process.stderr.write('wikistruct serve: --follow-url names the stream --follow reads: add --follow\n');
    return 2;
  }
  // An empty variable means unset, as shells and CI configurations commonly write it.
  const env = EnvSchema.safeParse(Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== '')));
  if (!env.success) {
    const issue = env.error.issues[0];
    process.stderr.write(`wikistruct serve: ${issue?.path.join('.')}: ${issue?.message}\n`);
    return 2;
  }
  let upstreams: UpstreamOrigin[];
  try {
    upstreams = readUpstreams(options.upstream, options['upstreams-file'], process.env['WIKISTRUCT_UPSTREAMS']);
  } catch (error) {
    if (!(error instanceof UpstreamConfigError)) throw error;
    process.stderr.write(`wikistruct serve: ${error.message}\n`);
    return 2;
  }
  const logger = createLogger({ level: env.data.LOG_LEVEL });
  const signals = catchSignals(logger);
  const store = {
    dataDir: options.data ?? defaultDataDir(),
    databaseUrl: env.data.DATABASE_URL,
    keySecret: env.data.WIKISTRUCT_KEY_SECRET,
    allowSharedDataDir: options['allow-shared-data-dir'],
    samples: !options['no-samples'],
  };
  try {
    // The store opens (a first start's template files written on libuv's threads, PGlite compiling in
    // the background) while the service's modules load: serve-start.ts.
    startMark('options read');
    const created = !existsSync(store.dataDir);
    const opened = startOpeningStore(store);
    const { startServer } = await importServer(opened, created ? store.dataDir : undefined);
    startMark('server modules loaded');
    const server = await startServer({
      ...store,
      opened,
      host: options.host,
      port: options.port,
      redisUrl: env.data.REDIS_URL,
      smtpUrl: env.data.SMTP_URL,
      mailFrom: env.data.MAIL_FROM,
      issuer: env.data.WIKISTRUCT_ISSUER,
      ...(options['trust-proxy'] === undefined ? {} : { trustProxy: options['trust-proxy'] }),
      offline: options.offline,
      upstreams,
      ...(options['max-age']?.ms === undefined ? {} : { maxAgeMs: options['max-age'].ms }),
      ...(options.follow ? { follow: options['follow-url'] ?? WIKIMEDIA_PAGE_CHANGES } : {}),
      snapshotsEveryMs: options['snapshots-every'].ms,
      snapshotsOff: options['snapshots-every'].ms === undefined,
      logger,
      ...(options.only === undefined ? {} : { only: options.only }),
    });
    await signals.closeOnSignal(server);
    logger.info('stopped');
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (error) {
    signals.release();
    if (error instanceof DataDirLockedError || error instanceof SharedDataDirError || error instanceof KeySecretError) {
      process.stderr.write(`wikistruct serve: ${error.message}\n`);
      return 1;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      const reason = code === 'EADDRINUSE' ? 'is already in use' : code === 'EACCES' ? 'is not allowed for this user' : 'is not an address of this machine';
      process.stderr.write(`wikistruct serve: ${options.host}:${options.port} ${reason} (choose another with --host/--port)\n`);
      return 1;
    }
    throw error;
  }
}

/**
 * server.ts, loaded while the store opens. If it cannot be loaded (a broken grammar file, a
 * missing dependency), the start fails before anything was served: the store is closed (its lock
 * released) and a data directory this start created is removed, so a failed first start leaves
 * nothing behind, as it did when the store was opened after the modules loaded. startServer
 * closes the store on any later failure.
 */
async function importServer(opened: Promise<OpenedStore>, createdDataDir: string | undefined): Promise<typeof import('../service/server.js')> {
  try {
    return await import('../service/server.js');
  } catch (error) {
    await opened.then((o) => o.storage.db.close(), () => undefined);
    if (createdDataDir !== undefined) rmSync(createdDataDir, { recursive: true, force: true });
    throw error;
  }
}

/** "10.0.0.1", "::1", "10.0.0.0/8", "fd00::/8": what proxy-addr accepts as a trusted proxy. */
function isAddressOrRange(item: string): boolean {
  const [address = '', bits, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** The configured wikis: the environment's, then the file's, then the flags' (a later one wins for its project). */
function readUpstreams(flags: readonly string[], file: string | undefined, env: string | undefined): UpstreamOrigin[] {
  const fromEnv = env === undefined ? [] : parseUpstreamList(env, 'WIKISTRUCT_UPSTREAMS');
  let fromFile: UpstreamOrigin[] = [];
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UpstreamConfigError(`--upstreams-file: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    fromFile = parseUpstreamList(text, file);
  }
  return mergeUpstreams(fromEnv, fromFile, flags.map((spec) => parseUpstream(spec)));
}
