/**
 * The body of `POST /v2/parse`, declared once for the service that reads it (its validation and
 * its /v2/openapi.json component `ParseRequest`) and the explorer page that sends it (types
 * only, so the browser bundle takes nothing of the server). Strict, like every /v2 body: an
 * unknown key, a missing or mistyped field is a 422 naming it.
 */
import { z } from 'zod';

const aString = (): z.ZodString => z.string({ message: 'must be a string' });

/** A project code's form; the service also checks that it names a known wiki. */
export const ProjectCodeSchema = aString().min(1, 'must not be empty').max(64, 'must be at most 64 characters');

export const ParseRequestSchema = z
  .strictObject({
    html: aString().min(1, 'must not be empty').optional(),
    wikitext: aString().min(1, 'must not be empty').optional(),
    name: aString().min(1, 'must not be empty').max(512, 'must be at most 512 characters').optional(),
    project: ProjectCodeSchema.optional(),
    /** Add a `source` hint to each block-level Part (engine/source-positions.ts); HTML only. */
    source_positions: z.boolean({ message: 'must be true or false' }).default(false),
  })
  .meta({
    description: '`{html}` (a page, rendered or Parsoid, or an envelope) or `{wikitext, name, project}`; `source_positions` (HTML only) adds a `source` hint to each block-level Part',
  });
export type ParseRequestBody = z.input<typeof ParseRequestSchema>;

/** The two bodies a valid request is (the service refuses the other combinations, naming them). */
export type ParseBody =
  | (Required<Pick<ParseRequestBody, 'html'>> & Pick<ParseRequestBody, 'source_positions'>)
  | Required<Pick<ParseRequestBody, 'wikitext' | 'name' | 'project'>>;
