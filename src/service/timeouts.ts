/**
 * How long the HTTP server waits for a client. Without these a client can hold a connection (and
 * its memory) forever: sending headers or a body one byte every few seconds (Slowloris), or
 * opening connections and sending nothing. docs/content-service.md, "Timeouts", has the why of
 * each default.
 */
import { z } from 'zod';

const ms = (what: string) => z.number({ message: `${what} must be a number of milliseconds` }).int(`${what} must be whole milliseconds`).positive(`${what} must be positive`);

export const HttpTimeoutsSchema = z
  .object({
    /** Until the request line and headers are complete (Node's `headersTimeout`). */
    headersMs: ms('headersMs').default(10_000),
    /** Until the whole request, body included, is received (Node's `requestTimeout`): a dripping body is cut off with a 408. */
    requestMs: ms('requestMs').default(30_000),
    /** An idle keep-alive connection between requests is closed after this (Node's `keepAliveTimeout`). */
    keepAliveMs: ms('keepAliveMs').default(72_000),
    /**
     * A connection on which no byte moves either way for this long is closed (fastify's
     * `connectionTimeout`, the socket's idle timeout). It also runs while a reply is computed, so
     * it must exceed the slowest upstream fetch plus parse.
     */
    idleMs: ms('idleMs').default(120_000),
    /** How often Node checks the headers and request timeouts (`connectionsCheckingInterval`): a timeout fires up to this late. */
    checkIntervalMs: ms('checkIntervalMs').default(1_000),
  })
  .refine((t) => t.headersMs <= t.requestMs, { message: 'headersMs must not exceed requestMs (Node refuses it)', path: ['headersMs'] });
export type HttpTimeouts = z.output<typeof HttpTimeoutsSchema>;

/** The timeouts with defaults filled in; throws a message naming the bad field. */
export function resolveTimeouts(partial: Partial<HttpTimeouts> = {}): HttpTimeouts {
  const parsed = HttpTimeoutsSchema.safeParse(partial);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(`HTTP timeouts: ${issue?.path.join('.')}: ${issue?.message}`);
}
