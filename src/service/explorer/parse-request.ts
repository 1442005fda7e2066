/**
 * The body of `POST /v2/parse`: `{html}` or `{wikitext, name, project}`, plus `source_positions`.
 * Strict, like every /v2 body: an unknown key, a missing or mistyped field is a 422 naming it.
 */
import { z } from 'zod';
import { hostOfProject } from '../../index.js';
import { unprocessable } from '../errors.js';

const aString = (): z.ZodString => z.string({ message: 'must be a string' });

const project = aString()
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters')
  .refine((code) => hostOfProject(code) !== undefined, { message: 'unknown project code (a database name such as enwiki, frwiki or enwikiversity)' });

export const ParseRequestSchema = z.strictObject({
  html: aString().min(1, 'must not be empty').optional(),
  wikitext: aString().min(1, 'must not be empty').optional(),
  name: aString().min(1, 'must not be empty').max(512, 'must be at most 512 characters').optional(),
  project: project.optional(),
  /** Add a `source` hint to each block-level Part (engine/source-positions.ts); HTML only. */
  source_positions: z.boolean({ message: 'must be true or false' }).default(false),
});

export type ParseRequest =
  | { kind: 'html'; html: string; sourcePositions: boolean }
  | { kind: 'wikitext'; wikitext: string; name: string; project: string };

/** The request in `text` (the raw body), or a 422 naming the first problem. */
export function readParseRequest(text: unknown): ParseRequest {
  if (typeof text !== 'string' || text.trim() === '') throw unprocessable(USAGE);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw unprocessable('request body is not valid JSON');
  }
  const parsed = ParseRequestSchema.safeParse(value);
  if (!parsed.success) throw unprocessable(messageOf(parsed.error));
  const body = parsed.data;
  if (body.html !== undefined) {
    if (body.wikitext !== undefined) throw unprocessable('send either html or wikitext, not both');
    // Silently ignoring them would let a client believe they were used: the HTML names its page.
    if (body.name !== undefined || body.project !== undefined) throw unprocessable('name and project go with wikitext; HTML carries its own title and project');
    return { kind: 'html', html: body.html, sourcePositions: body.source_positions };
  }
  if (body.wikitext === undefined) throw unprocessable(USAGE);
  if (body.name === undefined) throw unprocessable('name: required with wikitext (the page title)');
  if (body.project === undefined) throw unprocessable('project: required with wikitext (a database name such as enwiki)');
  if (body.source_positions) throw unprocessable('source_positions: available for html only (wikitext is not HTML: no elements to point at)');
  return { kind: 'wikitext', wikitext: body.wikitext, name: body.name, project: body.project };
}

const USAGE = 'request body must be a JSON object: {"html": "..."} or {"wikitext": "...", "name": "...", "project": "enwiki"}';

function messageOf(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return USAGE;
  if (issue.code === 'unrecognized_keys') return `${issue.keys.join(', ')}: unexpected field`;
  const field = issue.path.join('.');
  return field === '' ? USAGE : `${field}: ${issue.message}`;
}
