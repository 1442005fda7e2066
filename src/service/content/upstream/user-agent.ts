/**
 * The User-Agent sent to the wikis. Wikimedia's User-Agent policy asks every client to name itself
 * and give a way to contact its operator; requests without one may be blocked.
 */
import { createRequire } from 'node:module';
import { z } from 'zod';

// Self-reference by package name: resolves the same from src/ (tests) and dist/src/ (published).
const { version } = z.object({ version: z.string() }).parse(createRequire(import.meta.url)('wikistruct/package.json'));

export const WIKISTRUCT_VERSION = version;

/**
 * e.g. "wikistruct/0.1.0 (https://example.org/wikistruct; ops@example.org) node/20.20.2".
 * `contact` is the operator's URL and/or e-mail address; the service should always set it.
 */
export function userAgent(contact?: string): string {
  const who = contact !== undefined && contact.trim().length > 0 ? contact.trim() : 'no contact configured';
  return `wikistruct/${version} (${who}) node/${process.versions.node}`;
}
