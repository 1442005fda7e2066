/**
 * `target.push(...items)` passes every item as an argument, on the call stack: past about 100,000
 * items (a wide page: 130,000 paragraphs, a list of a million links) V8 throws "Maximum call stack
 * size exceeded". `pushAll` appends one by one instead. test/engine/no-spread-arguments.test.ts
 * keeps such spreads out of `src`.
 */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
