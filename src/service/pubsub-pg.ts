/**
 * The bus over PostgreSQL LISTEN/NOTIFY. LISTEN needs one connection held for the process's
 * lifetime, so it gets its own client rather than one borrowed from the pool (a pooled
 * connection would be handed to queries, and its LISTEN lost when the pool recycles it).
 * NOTIFY goes through the ordinary pool: it is transactional, so it is sent on commit.
 *
 * Channels are per database, not per schema: deployments (and test suites) sharing a database
 * give each a channel of its own.
 */
import pg from 'pg';
import type { Queryable } from './storage/db.js';
import { quoteIdent } from './storage/postgres.js';
import { Subscribers, type Bus } from './pubsub.js';

export interface PgBusOptions {
  connectionString: string;
  /** The NOTIFY channel (a PostgreSQL identifier, at most 63 bytes). */
  channel: string;
  /** Where NOTIFY is sent: the process's pool. */
  db: Queryable;
  /** Told when the LISTEN connection fails; it is re-established after `retryMs`. */
  onError?: (error: Error) => void;
  retryMs?: number;
}

/** Connects and LISTENs before resolving, so no message published afterwards is missed. */
export async function openPgBus(options: PgBusOptions): Promise<Bus> {
  const subscribers = new Subscribers();
  const retryMs = options.retryMs ?? 1000;
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const listen = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: options.connectionString });
    next.on('notification', (message) => {
      if (message.channel === options.channel && message.payload !== undefined) subscribers.receive(message.payload);
    });
    // A dropped connection (server restart, network): listen again; whatever was sent meanwhile
    // is lost, so subscribers are told to drop everything once we listen again.
    next.on('error', (error) => {
      options.onError?.(error);
      void next.end().catch(() => {});
      if (client === next) client = undefined;
      schedule();
    });
    await next.connect();
    await next.query(`LISTEN ${quoteIdent(options.channel)}`);
    if (closed) {
      await next.end();
      return;
    }
    client = next;
  };
  const schedule = (): void => {
    if (closed || retry !== undefined) return;
    retry = setTimeout(() => {
      retry = undefined;
      listen().then(
        () => subscribers.resync(),
        (error: unknown) => {
          options.onError?.(error as Error);
          schedule();
        },
      );
    }, retryMs);
    retry.unref();
  };

  await listen();
  return {
    publish: async (topic, payload) => {
      await options.db.query('SELECT pg_notify($1, $2)', [options.channel, subscribers.encode(topic, payload)]);
    },
    subscribe: (topic, handler) => subscribers.add(topic, handler),
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}
