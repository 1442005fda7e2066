/**
 * Text the database can hold. PostgreSQL refuses NUL in `text` and `\u0000` in `jsonb` (an error
 * deep inside a query, a 500), and a lone UTF-16 surrogate has no UTF-8 form: it would be stored
 * as U+FFFD, silently another string. Request fields that reach a query are checked up front with
 * these, so that the client gets a 4xx naming the field instead.
 */
import { z } from 'zod';

/**
 * NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
 * Deliberately without the `u` flag: it must see UTF-16 code units, not code points.
 */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored, or undefined when it can. */
export function unstorableReason(text: string): string | undefined {
  const match = UNSTORABLE.exec(text);
  if (match === null) return undefined;
  return match[0] === '\u0000' ? 'must not contain NUL (\\u0000)' : 'must not contain a lone UTF-16 surrogate (not valid Unicode)';
}

/**
 * A string schema that also refuses what storage cannot hold, the reason as the issue's message:
 * `storableText()` or `storableText(z.string().min(1).max(64))` (the checks keep their order).
 */
export function storableText(schema: z.ZodString = z.string()): z.ZodString {
  return schema.superRefine((text, ctx) => {
    const reason = unstorableReason(text);
    if (reason !== undefined) ctx.addIssue({ code: 'custom', message: reason, input: text });
  });
}
