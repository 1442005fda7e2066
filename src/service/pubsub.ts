/**
 * The push that keeps the processes of one deployment in step: a message published by one
 * process reaches every other process's subscribers at once. What flows over it is only "drop
 * what you cached about X" — revocations, key rotations, article writes — so a lost message
 * costs staleness up to the poll window each cache keeps as its fallback, never a wrong answer
 * beyond it.
 *
 * Three carriers, one contract: in-process (embedded database: there is only one process),
 * PostgreSQL LISTEN/NOTIFY (pubsub-pg.ts) and Redis pub/sub (pubsub-redis.ts).
 */
import { randomUUID } from 'node:crypto';

export type Topic = 'revoked' | 'keys' | 'article';

/**
 * `payload` is the published text; undefined means "messages may have been lost" (the carrier's
 * connection was re-established): a subscriber then drops everything it could have been told.
 */
export type Handler = (payload: string | undefined) => void;

export interface Bus {
  /** Sends to every other endpoint; the publisher's own subscribers are not called (it acts locally first). */
  publish(topic: Topic, payload: string): Promise<void>;
  subscribe(topic: Topic, handler: Handler): () => void;
  close(): Promise<void>;
}

/** One message on the wire: the sender, so that an endpoint ignores its own echo. */
export interface Envelope {
  from: string;
  topic: Topic;
  payload: string;
}

const TOPICS: ReadonlySet<string> = new Set<Topic>(['revoked', 'keys', 'article']);

/** The handlers of one endpoint, and the echo filter every carrier shares. */
export class Subscribers {
  readonly id = randomUUID();
  readonly #handlers = new Map<Topic, Set<Handler>>();

  add(topic: Topic, handler: Handler): () => void {
    let set = this.#handlers.get(topic);
    if (set === undefined) this.#handlers.set(topic, (set = new Set()));
    set.add(handler);
    return () => void set.delete(handler);
  }

  encode(topic: Topic, payload: string): string {
    return JSON.stringify({ from: this.id, topic, payload } satisfies Envelope);
  }

  /** Delivers a message from the wire; malformed text (another program on the channel) is ignored. */
  receive(text: string): void {
    let envelope: Partial<Envelope>;
    try {
      envelope = JSON.parse(text) as Partial<Envelope>;
    } catch {
      return;
    }
    if (envelope.from === this.id || typeof envelope.topic !== 'string' || !TOPICS.has(envelope.topic)) return;
    if (typeof envelope.payload !== 'string') return;
    this.deliver(envelope.topic as Topic, envelope.payload);
  }

  /** Tells every subscriber of every topic that messages may have been lost. */
  resync(): void {
    for (const topic of this.#handlers.keys()) this.deliver(topic, undefined);
  }

  deliver(topic: Topic, payload: string | undefined): void {
    for (const handler of this.#handlers.get(topic) ?? []) handler(payload);
  }
}

/** Endpoints in one process, per hub: the embedded database's bus (and tests' stand-in for processes). */
export class LocalHub {
  readonly #endpoints = new Set<Subscribers>();

  endpoint(): Bus {
    const own = new Subscribers();
    this.#endpoints.add(own);
    return {
      publish: async (topic, payload) => {
        const text = own.encode(topic, payload);
        for (const endpoint of this.#endpoints) endpoint.receive(text);
      },
      subscribe: (topic, handler) => own.add(topic, handler),
      close: async () => void this.#endpoints.delete(own),
    };
  }
}
