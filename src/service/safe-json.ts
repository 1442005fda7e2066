/**
 * JSON from outside the process (a bus message, a file on disk) that may be malformed: parsed,
 * or undefined, so the caller's schema check refuses it like any other unexpected value.
 */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
