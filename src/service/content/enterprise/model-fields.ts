/**
 * Dot paths into the Enterprise models (models.ts). Checking a path and compiling `fields` are
 * fields.ts's (modelPath, compileSelection with the model), the same walker and tree builder
 * structured contents use, so `fields` means the same on every endpoint: a path through an
 * array applies inside every element, a path into a map may name any key (and any path inside
 * free-form JSON), the wider of two overlapping paths wins. What is left here is reading a
 * path's values for list filters.
 */

/** The values a dot path reaches in `value`, through arrays (several for a path through an array). */
export function valuesAt(value: unknown, segments: readonly string[]): unknown[] {
  if (Array.isArray(value)) return value.flatMap((element) => valuesAt(element, segments));
  if (segments.length === 0) return [value];
  if (typeof value !== 'object' || value === null) return [];
  const [head, ...rest] = segments;
  return valuesAt((value as Record<string, unknown>)[head!], rest);
}
