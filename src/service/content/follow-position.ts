/**
 * Where `serve --follow` is in the stream it follows: the id of the last event received, kept in
 * the database (`follow_positions`, migration 0010) per stream URL, so that a restarted server
 * resumes from it (the stream replays what it missed, `Last-Event-ID`) rather than from the
 * stream's present. A reconnection within one process resumes from memory (follow.ts); this is
 * for a new process.
 *
 * Saved at most every `saveEveryMs` (events arrive by the hundred per second on Wikimedia's
 * stream; one write per event would be a write per event), and on close. A process that dies
 * between two saves resumes from the earlier one: the events in between are handled twice,
 * which refreshes nothing twice (a stored revision as new as the event's is skipped). Servers
 * following one stream on one database share the row: the last to save wins, and each resumes
 * from about where the others were.
 */
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { Db } from '../storage/db.js';

const Rows = z.array(z.object({ last_event_id: z.string() }));

export class FollowPosition {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #stream: string;
  readonly #saveEveryMs: number;
  readonly #onError: (error: unknown) => void;
  #pending: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** The writes, in order: a later id never lands before an earlier one. */
  #writing: Promise<void> = Promise.resolve();

  constructor(options: { db: Db; clock: Clock; stream: string; saveEveryMs: number; onError: (error: unknown) => void }) {
    this.#db = options.db;
    this.#clock = options.clock;
    this.#stream = options.stream;
    this.#saveEveryMs = options.saveEveryMs;
    this.#onError = options.onError;
  }

  /** The id saved for this stream, if any. */
  async load(): Promise<string | undefined> {
    return Rows.parse(await this.#db.query('SELECT last_event_id FROM follow_positions WHERE stream = $1', [this.#stream]))[0]?.last_event_id;
  }

  /** An event with this id was received: saved with the next save. */
  seen(id: string): void {
    this.#pending = id;
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => void this.flush(), this.#saveEveryMs);
    this.#timer.unref();
  }

  /** Saves the last id seen now, if not saved yet; resolves when every save so far is done (failures are told, not thrown). */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const id = this.#pending;
    this.#pending = undefined;
    if (id === undefined) return this.#writing;
    const at = this.#clock.now().toISOString();
    this.#writing = this.#writing
      .then(async () => {
        await this.#db.query(
          `INSERT INTO follow_positions (stream, last_event_id, saved_at) VALUES ($1, $2, $3)
           ON CONFLICT (stream) DO UPDATE SET last_event_id = $2, saved_at = $3`,
          [this.#stream, id, at],
        );
      })
      .catch(this.#onError);
    return this.#writing;
  }
}
