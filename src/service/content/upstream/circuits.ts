/**
 * A circuit breaker per project (cockatiel's): after `threshold` fetches in a row fail (wiki down,
 * 5xx, timeouts), further fetches of that project are refused at once for `cooldownMs` instead of
 * each waiting out its own retries and deadline. Then one trial fetch goes through while the
 * others wait for its outcome: success closes the circuit, failure opens it for another cooldown.
 * Answers such as 404 prove the wiki is up and count as successes; a fetch the caller gave up on
 * counts as neither (a trial given up closes the circuit, as cockatiel does, but the failure count
 * stays, so the next failure opens it again at once). The service never gives up on a fetch: the
 * upstream loader shares one fetch among its callers and ignores their signals.
 */
import { BrokenCircuitError, ConsecutiveBreaker, circuitBreaker, handleWhenResult } from 'cockatiel';
import type { CircuitBreakerPolicy } from 'cockatiel';
import { LRUCache } from 'lru-cache';
import { UpstreamError, UpstreamUnavailable } from './errors.js';

export interface CircuitPolicy {
  threshold: number;
  cooldownMs: number;
}

interface Circuit {
  breaker: CircuitBreakerPolicy;
  /** Date.now() when it last opened, for the time left in a refusal. */
  openedAt: number;
}

/** What the breaker sees of a fetch: the wiki failed, answered something, or delivered. */
type Outcome<T> = { value: T } | { error: UpstreamError; wikiFailed: boolean };

const wikiFailed = (result: unknown): boolean => typeof result === 'object' && result !== null && 'wikiFailed' in result && result.wikiFailed === true;

export class ProjectCircuits {
  readonly #policy: CircuitPolicy;
  /** Failing project codes are few; the bound only guards against a flood of made-up ones. */
  readonly #circuits = new LRUCache<string, Circuit>({ max: 10_000 });
  readonly #failed: (error: UpstreamError) => boolean;

  /** `failed` tells the errors that mean the wiki is failing from answers that prove it up. */
  constructor(policy: CircuitPolicy, failed: (error: UpstreamError) => boolean) {
    this.#policy = policy;
    this.#failed = failed;
  }

  /**
   * `fetch` through the circuit of `project`. While the circuit is open, rejects at once with an
   * UpstreamUnavailable whose `retryAfterSeconds` says when asking again makes sense (the service
   * counts these refusals apart: the wiki was never asked).
   */
  async run<T>(project: string, title: string, fetch: () => Promise<T>): Promise<T> {
    const circuit = this.#circuit(project);
    let outcome: Outcome<T>;
    try {
      // Failures are returned, not thrown, so that the breaker can tell a failing wiki (counted)
      // from an answer such as 404 (a success) and from the caller giving up (thrown: neither).
      outcome = await circuit.breaker.execute(async (): Promise<Outcome<T>> => {
        try {
          return { value: await fetch() };
        } catch (error) {
          if (error instanceof UpstreamError) return { error, wikiFailed: this.#failed(error) };
          throw error;
        }
      });
    } catch (error) {
      if (!(error instanceof BrokenCircuitError)) throw error;
      const seconds = Math.max(1, Math.ceil((circuit.openedAt + this.#policy.cooldownMs - Date.now()) / 1000));
      throw new UpstreamUnavailable(project, title, `its recent fetches failed; not asking again for ${seconds} s`, { retryAfterSeconds: seconds });
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  #circuit(project: string): Circuit {
    let circuit = this.#circuits.get(project);
    if (circuit === undefined) {
      const breaker = circuitBreaker(handleWhenResult(wikiFailed), {
        halfOpenAfter: this.#policy.cooldownMs,
        breaker: new ConsecutiveBreaker(this.#policy.threshold),
      });
      const created: Circuit = { breaker, openedAt: 0 };
      breaker.onBreak(() => (created.openedAt = Date.now()));
      this.#circuits.set(project, created);
      circuit = created;
    }
    return circuit;
  }
}
