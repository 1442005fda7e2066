/**
 * `wikistruct serve`: the HTTP service (auth under /v1, the content API under /v2) on one port.
 * Configuration by flags, secrets and connection strings by environment (they must not show up
 * in `ps`).
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { createLogger } from '../service/logger.js';
import { defaultDataDir, handleSignals, startServer } from '../service/server.js';
import { KeySecretError, MIN_KEY_SECRET_CHARS } from '../service/auth/key-secret.js';
import { SharedDataDirError } from '../service/storage/data-dir.js';
import { DataDirLockedError } from '../service/storage/lock.js';
import { readOptions } from './run.js';
import { WIKIMEDIA_PAGE_CHANGES } from '../service/content/follow.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90`, `90s`, `30m`, `12h`, `7d` (checked by the schema) in milliseconds. */
function durationMs(text: string): number {
  const [, amount, unit] = /^(\d+)(ms|s|m|h|d)?$/.exec(text)!;
  return Number(amount) * UNIT_MS[unit ?? 's']!;
}

const HELP = `usage: wikistruct serve [--host H] [--port N] [--data DIR] [--only auth|content] [--offline] [--no-samples]
                        [--max-age DURATION] [--follow [--follow-url URL]] [--allow-shared-data-dir]
                        [--trust-proxy ADDRESSES]

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
`;

const OptionsSchema = z.object({
  host: z.string().min(1),
  port: z.coerce.number().int('--port must be an integer').min(0).max(65535, '--port must be at most 65535'),
  data: z.string().min(1).optional(),
  only: z.enum(['auth', 'content'], { message: '--only must be "auth" or "content"' }).optional(),
  offline: z.boolean(),
  'no-samples': z.boolean(),
  'max-age': z
    .string()
    .regex(/^\d+(ms|s|m|h|d)?$/, '--max-age must be a whole number of seconds, or with a unit: 90s, 30m, 12h, 7d')
    .transform(durationMs)
    .optional(),
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
  const logger = createLogger({ level: env.data.LOG_LEVEL });
  try {
    const server = await startServer({
      host: options.host,
      port: options.port,
      dataDir: options.data ?? defaultDataDir(),
      databaseUrl: env.data.DATABASE_URL,
      redisUrl: env.data.REDIS_URL,
      smtpUrl: env.data.SMTP_URL,
      mailFrom: env.data.MAIL_FROM,
      issuer: env.data.WIKISTRUCT_ISSUER,
      keySecret: env.data.WIKISTRUCT_KEY_SECRET,
      allowSharedDataDir: options['allow-shared-data-dir'],
      ...(options['trust-proxy'] === undefined ? {} : { trustProxy: options['trust-proxy'] }),
      offline: options.offline,
      samples: !options['no-samples'],
      ...(options['max-age'] === undefined ? {} : { maxAgeMs: options['max-age'] }),
      ...(options.follow ? { follow: options['follow-url'] ?? WIKIMEDIA_PAGE_CHANGES } : {}),
      logger,
      ...(options.only === undefined ? {} : { only: options.only }),
    });
    await handleSignals(server, logger);
    logger.info('stopped');
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (error) {
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

/** "10.0.0.1", "::1", "10.0.0.0/8", "fd00::/8": what proxy-addr accepts as a trusted proxy. */
function isAddressOrRange(item: string): boolean {
  const [address = '', bits, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}
