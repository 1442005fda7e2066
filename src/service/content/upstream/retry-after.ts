/**
 * Milliseconds a Retry-After header asks us to wait (RFC 9110 §10.2.3: delay-seconds or an
 * HTTP-date); undefined when absent or unreadable. (Backoff itself is cockatiel's, see http.ts.)
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
