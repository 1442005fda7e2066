/**
 * A circuit breaker per project: after `threshold` fetches in a row fail (wiki down, 5xx,
 * timeouts), further fetches fail at once for `cooldownMs` instead of each waiting out its own
 * retries and deadline. Then one trial fetch is let through: success closes the circuit, failure
 * opens it for another cooldown. Answers such as 404 prove the wiki is up and count as success.
 */
export interface BreakerPolicy {
  threshold: number;
  cooldownMs: number;
}

interface Circuit {
  failures: number;
  /** 0 while closed; while open, the time the next trial may start. */
  openUntil: number;
  trialInFlight: boolean;
}

/** Failing project codes are few; the cap only guards against a flood of made-up ones. */
const MAX_CIRCUITS = 10_000;

export type Admission = { allowed: true } | { allowed: false; retryInMs: number };

export class CircuitBreaker {
  readonly #circuits = new Map<string, Circuit>();
  readonly #policy: BreakerPolicy;
  readonly #now: () => number;

  constructor(policy: BreakerPolicy, now: () => number = Date.now) {
    this.#policy = policy;
    this.#now = now;
  }

  /** Whether a fetch for `key` may start now; a half-open circuit admits one trial at a time. */
  admit(key: string): Admission {
    const circuit = this.#circuits.get(key);
    if (circuit === undefined || circuit.openUntil === 0) return { allowed: true };
    const now = this.#now();
    if (now < circuit.openUntil) return { allowed: false, retryInMs: circuit.openUntil - now };
    if (circuit.trialInFlight) return { allowed: false, retryInMs: this.#policy.cooldownMs };
    circuit.trialInFlight = true;
    return { allowed: true };
  }

  succeeded(key: string): void {
    this.#circuits.delete(key);
  }

  failed(key: string): void {
    let circuit = this.#circuits.get(key);
    if (circuit === undefined) {
      if (this.#circuits.size >= MAX_CIRCUITS) this.#circuits.delete(this.#circuits.keys().next().value!);
      circuit = { failures: 0, openUntil: 0, trialInFlight: false };
      this.#circuits.set(key, circuit);
    }
    circuit.failures++;
    if (circuit.trialInFlight || circuit.failures >= this.#policy.threshold) {
      circuit.openUntil = this.#now() + this.#policy.cooldownMs;
    }
    circuit.trialInFlight = false;
  }

  /** The fetch ended without telling us anything (the caller gave up): let another trial start. */
  abandoned(key: string): void {
    const circuit = this.#circuits.get(key);
    if (circuit !== undefined) circuit.trialInFlight = false;
  }
}
