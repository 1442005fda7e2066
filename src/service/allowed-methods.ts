/**
 * Which methods each path serves, for 405 replies with `Allow` (RFC 9110 §15.5.6): fastify's router
 * answers an unknown method on a known path like an unknown path, so the app records every route
 * (an `onRoute` hook) and matches the request path against their patterns itself.
 */
interface Pattern {
  /** Literal segments, or undefined for a `:param` segment. */
  segments: (string | undefined)[];
  /** A trailing `*`: any number of further segments. */
  rest: boolean;
  methods: Set<string>;
}

export class AllowedMethods {
  readonly #patterns = new Map<string, Pattern>();

  add(methods: string | readonly string[], url: string): void {
    let pattern = this.#patterns.get(url);
    if (pattern === undefined) {
      const parts = url.split('/');
      const rest = parts.at(-1) === '*';
      if (rest) parts.pop();
      pattern = { segments: parts.map((p) => (p.startsWith(':') ? undefined : p)), rest, methods: new Set() };
      this.#patterns.set(url, pattern);
    }
    for (const method of typeof methods === 'string' ? [methods] : methods) pattern.methods.add(method.toUpperCase());
  }

  /** The methods some route serves at `path` (no query string), sorted; empty when no route has the path. */
  allowed(path: string): string[] {
    // As the router reads it (http-server.ts ignoreTrailingSlash): `/v2/codes/` is `/v2/codes`.
    const parts = (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).split('/');
    const methods = new Set<string>();
    for (const pattern of this.#patterns.values()) {
      if (matches(pattern, parts)) for (const m of pattern.methods) methods.add(m);
    }
    if (methods.has('GET')) methods.add('HEAD'); // fastify answers HEAD wherever GET exists
    return [...methods].sort();
  }
}

function matches(pattern: Pattern, parts: readonly string[]): boolean {
  const { segments } = pattern;
  if (pattern.rest ? parts.length < segments.length : parts.length !== segments.length) return false;
  return segments.every((segment, i) => (segment === undefined ? parts[i] !== '' : segment === parts[i]));
}
