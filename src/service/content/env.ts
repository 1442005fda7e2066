/**
 * Content API settings from the environment of `wikistruct serve` (flags stay for what an
 * operator changes often; these are deployment tuning).
 */
import { z } from 'zod';
import type { HttpTimeouts } from '../timeouts.js';
import type { ContentSettings } from './part.js';

const ContentEnvSchema = z.object({
  /** Operator URL and/or e-mail for the User-Agent sent to the wikis (Wikimedia's policy asks for one). */
  WIKISTRUCT_CONTACT: z.string().min(1).optional(),
  WIKISTRUCT_PARSE_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  WIKISTRUCT_RATE_LIMIT_PER_SECOND: z.coerce.number().positive().optional(),
  WIKISTRUCT_RATE_LIMIT_BURST: z.coerce.number().int().positive().optional(),
});

/** Throws a message naming the variable when one is malformed. */
export function contentSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): ContentSettings {
  const parsed = ContentEnvSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${issue?.path.join('.')}: ${issue?.message}`);
  }
  const e = parsed.data;
  const settings: ContentSettings = {};
  if (e.WIKISTRUCT_CONTACT !== undefined) settings.wiki = { contact: e.WIKISTRUCT_CONTACT };
  if (e.WIKISTRUCT_PARSE_THREADS !== undefined) settings.parseThreads = e.WIKISTRUCT_PARSE_THREADS;
  const rateLimit: NonNullable<ContentSettings['rateLimit']> = {};
  if (e.WIKISTRUCT_RATE_LIMIT_PER_SECOND !== undefined) rateLimit.perSecond = e.WIKISTRUCT_RATE_LIMIT_PER_SECOND;
  if (e.WIKISTRUCT_RATE_LIMIT_BURST !== undefined) rateLimit.burst = e.WIKISTRUCT_RATE_LIMIT_BURST;
  if (Object.keys(rateLimit).length > 0) settings.rateLimit = rateLimit;
  return settings;
}

const millis = z.coerce.number().int().positive();
/** The HTTP server's timeouts (src/service/timeouts.ts); here because the content API is what they protect most. */
const TimeoutEnvSchema = z.object({
  WIKISTRUCT_HEADERS_TIMEOUT_MS: millis.optional(),
  WIKISTRUCT_REQUEST_TIMEOUT_MS: millis.optional(),
  WIKISTRUCT_KEEP_ALIVE_TIMEOUT_MS: millis.optional(),
  WIKISTRUCT_IDLE_TIMEOUT_MS: millis.optional(),
});

/** HTTP timeouts from the environment (unset: the defaults); throws a message naming the variable. */
export function httpTimeoutsFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<HttpTimeouts> {
  const parsed = TimeoutEnvSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${issue?.path.join('.')}: ${issue?.message}`);
  }
  const e = parsed.data;
  const timeouts: Partial<HttpTimeouts> = {};
  if (e.WIKISTRUCT_HEADERS_TIMEOUT_MS !== undefined) timeouts.headersMs = e.WIKISTRUCT_HEADERS_TIMEOUT_MS;
  if (e.WIKISTRUCT_REQUEST_TIMEOUT_MS !== undefined) timeouts.requestMs = e.WIKISTRUCT_REQUEST_TIMEOUT_MS;
  if (e.WIKISTRUCT_KEEP_ALIVE_TIMEOUT_MS !== undefined) timeouts.keepAliveMs = e.WIKISTRUCT_KEEP_ALIVE_TIMEOUT_MS;
  if (e.WIKISTRUCT_IDLE_TIMEOUT_MS !== undefined) timeouts.idleMs = e.WIKISTRUCT_IDLE_TIMEOUT_MS;
  return timeouts;
}
