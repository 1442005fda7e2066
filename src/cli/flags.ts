/**
 * Flag values of the command line, checked once: each takes the raw string and the flag's name,
 * and a bad value is a UsageError naming both (exit code 2). Shared by `convert` and `worker`.
 */
import { UsageError } from '../io/usage-error.js';

export function wholeNumber(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} takes a whole number; got "${value}"`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`${flag} must be between ${min} and ${max}; got ${n}`);
  return n;
}

/** A number of seconds, at least `min`; by default above 0 (an interval that must tick). */
export function seconds(flag: string, value: string, min = Number.MIN_VALUE): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min) throw new UsageError(`${flag} takes a number of seconds${min > 0 ? ' above 0' : ''}; got "${value}"`);
  return n;
}

const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** A size in bytes, with an optional binary unit: 1048576, 32M, 1.5g, 64MiB. `example` is the flag's default, for the message. */
export function byteSize(flag: string, value: string, example: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i.exec(value.trim());
  if (match === null) throw new UsageError(`${flag} takes a size in bytes, e.g. 1048576 or ${example}; got "${value}"`);
  const n = Math.round(Number(match[1]) * SIZE_UNITS[match[2]!.toLowerCase()]!);
  if (n < 1) throw new UsageError(`${flag} must be at least 1 byte; got "${value}"`);
  return n;
}

/** One of `allowed`, read with `parse` (a zod enum's). */
export function choice<T>(flag: string, value: string, allowed: readonly string[], parse: (v: string) => T): T {
  if (!allowed.includes(value)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}; got "${value}"`);
  return parse(value);
}

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export interface DurationRule {
  /** A number without a unit counts as seconds (`--max-age 90`); else a unit is required. */
  bareSeconds: boolean;
  /** The shortest duration taken, in milliseconds (0: any). */
  minMs: number;
  /** `off` (or `0`) turns the thing off: undefined. */
  off: boolean;
  /** Examples for the message, e.g. "90s, 30m, 12h, 7d". */
  examples: string;
}

/**
 * A duration flag in milliseconds: a whole number with a unit (`ms`, `s`, `m`, `h`, `d`: `90s`,
 * `30m`, `24h`, `7d`), as `rule` allows. One reader for every duration the command line takes
 * (`serve --max-age`, `--snapshots-every`), so they read alike and fail alike.
 */
export function duration(flag: string, value: string, rule: DurationRule): number | undefined {
  const text = value.trim().toLowerCase();
  if (rule.off && (text === 'off' || text === '0')) return undefined;
  const match = /^(\d{1,12})(ms|s|m|h|d)?$/.exec(text);
  if (match === null || (match[2] === undefined && !rule.bareSeconds)) {
    const bare = rule.bareSeconds ? 'a whole number of seconds, or with a unit' : 'a whole number with a unit';
    throw new UsageError(`${flag} takes a duration: ${bare} (${rule.examples})${rule.off ? ', or "off"' : ''}; got "${value}"`);
  }
  const ms = Number(match[1]) * DURATION_UNITS_MS[match[2] ?? 's']!;
  if (ms < rule.minMs) throw new UsageError(`${flag} must be at least ${describeMs(rule.minMs)}; got "${value}"`);
  return ms;
}

function describeMs(ms: number): string {
  if (ms % 60_000 === 0) return ms === 60_000 ? 'a minute' : `${ms / 60_000} minutes`;
  return `${ms / 1000} s`;
}
