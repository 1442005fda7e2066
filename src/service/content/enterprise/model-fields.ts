/**
 * Dot paths (`fields`, filter fields) checked against any of the Enterprise models (models.ts),
 * compiled to the same Selection that fields.ts applies to structured contents, so that `fields`
 * means the same on every endpoint: a path through an array applies inside every element, a
 * path into a map may name any key (and any path inside free-form JSON), the wider of two
 * overlapping paths wins.
 */
import { z } from 'zod';
import { UnknownFieldError, type Selection } from '../fields.js';

/** zod wrappers that do not change what a field can hold (an array's field is its elements'). */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault) current = current.unwrap() as z.ZodType;
    else if (current instanceof z.ZodArray) current = current.element as z.ZodType;
    else return current;
  }
}

/** The schema a dot path names in `model` (called `label` in messages); throws UnknownFieldError. */
export function modelPath(model: z.ZodType, label: string, path: string): z.ZodType {
  const segments = path.split('.');
  if (segments.some((s) => s === '')) throw new UnknownFieldError(`"${path}" is not a field path (names joined by single dots)`);
  let schema = model;
  segments.forEach((segment, i) => {
    const inner = unwrap(schema);
    const where = segments.slice(0, i).join('.');
    if (inner instanceof z.ZodObject) {
      const shape = inner.shape as Record<string, z.ZodType>;
      if (!Object.hasOwn(shape, segment)) {
        const name = where === '' ? `${label} field "${segment}"` : `field "${segment}" in "${where}"`;
        throw new UnknownFieldError(`unknown ${name}; expected one of ${Object.keys(shape).join(', ')}`);
      }
      schema = shape[segment]!;
    } else if (inner instanceof z.ZodRecord) {
      schema = inner.valueType as z.ZodType;
    } else if (inner instanceof z.ZodUnknown || inner instanceof z.ZodAny) {
      // Free-form JSON (a model score's details): any path into it may exist.
    } else {
      throw new UnknownFieldError(`"${where}" has no sub-fields`);
    }
  });
  return schema;
}

/** The selection of checked paths; a path that contains another keeps the wider. */
export function compileModelSelection(model: z.ZodType, label: string, paths: readonly string[]): Selection {
  const root = new Map<string, Map<string, unknown> | true>();
  for (const path of paths) {
    modelPath(model, label, path);
    let node = root;
    const segments = path.split('.');
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      const existing = node.get(segment);
      if (existing === true) break;
      if (i === segments.length - 1) {
        node.set(segment, true);
        break;
      }
      const next = existing ?? new Map<string, unknown>();
      node.set(segment, next);
      node = next as typeof root;
    }
  }
  return root as Selection;
}

/** The values a dot path reaches in `value`, through arrays (several for a path through an array). */
export function valuesAt(value: unknown, segments: readonly string[]): unknown[] {
  if (Array.isArray(value)) return value.flatMap((element) => valuesAt(element, segments));
  if (segments.length === 0) return [value];
  if (typeof value !== 'object' || value === null) return [];
  const [head, ...rest] = segments;
  return valuesAt((value as Record<string, unknown>)[head!], rest);
}
