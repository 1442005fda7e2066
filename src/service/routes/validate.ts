/**
 * The one way a request is checked: its zod shape, and on failure a 422 `{message, status}` whose
 * message starts with the field (`password: must be at least 8 characters long`,
 * `filters.0.field: unknown filter field; …`, `extra: unexpected field`). Every /v1 and /v2 route
 * reads its body or query through here (routes/table.ts), so the messages have one format.
 */
import type { z } from 'zod';
import { unprocessable } from '../errors.js';

/** What a body that is not an object is told, unless the route says more (/v2/parse shows its usage). */
export const NOT_AN_OBJECT = 'request body must be a JSON object';

/**
 * Messages for the issues a shape leaves to zod's defaults: a missing field, a value of the wrong
 * type. A shape's own message (`must be an integer from 1 to 10`) wins over these.
 */
const messages: z.core.$ZodErrorMap = (issue) => {
  if (issue.code !== 'invalid_type') return undefined;
  if (issue.input === undefined) return 'required field is missing';
  return `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
};

/** `value` as `schema` has it, or a 422 naming the first problem's field (`whole`: the message for the value itself). */
export function validated<T>(schema: z.ZodType<T>, value: unknown, whole: string = NOT_AN_OBJECT): T {
  const parsed = schema.safeParse(value, { error: messages });
  if (parsed.success) return parsed.data;
  throw unprocessable(messageOf(parsed.error, whole));
}

function messageOf(error: z.ZodError, whole: string): string {
  const issue = error.issues[0];
  if (issue === undefined) return whole;
  if (issue.code === 'unrecognized_keys') return `${[issue.path.join('.'), issue.keys.join(', ')].filter((s) => s !== '').join(': ')}: unexpected field`;
  const field = issue.path.join('.');
  return field === '' ? whole : `${field}: ${issue.message}`;
}
