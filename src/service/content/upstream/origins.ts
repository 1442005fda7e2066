/**
 * Where a project's articles are fetched: by default the Wikimedia wiki of its code
 * (`https://<host>/w/rest.php`); `--upstream PROJECT=URL` maps any code to another MediaWiki —
 * a mirror of a Wikimedia wiki, a company wiki, a local test wiki. The URL is the wiki's origin,
 * whose REST API is at `/w/rest.php` (MediaWiki's usual layout), or the URL of the REST API itself
 * when its path ends in `rest.php` (`https://wiki.example.org/rest.php` for a wiki installed at
 * the root). The action API (siteinfo) is read beside it, at `api.php`.
 *
 * The same list comes from the flag (repeatable), a file (`--upstreams-file`, one mapping a
 * line) and the environment (`WIKISTRUCT_UPSTREAMS`, mappings separated by spaces or commas);
 * for one project the flag wins over the file, the file over the environment.
 */

/** One configured wiki. */
export interface UpstreamOrigin {
  /** The project code it answers for, e.g. "enwiki" or "companywiki". */
  project: string;
  /** Scheme, host and port, e.g. "http://127.0.0.1:8081". */
  origin: string;
  /** The REST API's URL, e.g. "http://127.0.0.1:8081/w/rest.php". */
  restUrl: string;
  /** The action API's URL beside it, e.g. "http://127.0.0.1:8081/w/api.php". */
  apiUrl: string;
}

/** A mapping that cannot be read; the message names it and says what was expected. */
export class UpstreamConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpstreamConfigError';
  }
}

const DEFAULT_REST_PATH = '/w/rest.php';
/** A project code as the database names wikis ("enwiki", "zh_yuewiki"); `wikistruct import --project` takes the same. */
const PROJECT_CODE_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/** `PROJECT=URL` → the wiki it names; throws UpstreamConfigError. `where` names the source in messages ("--upstream"). */
export function parseUpstream(spec: string, where = '--upstream'): UpstreamOrigin {
  const eq = spec.indexOf('=');
  if (eq < 0) throw new UpstreamConfigError(`${where}: "${cut(spec)}" is not PROJECT=URL (e.g. companywiki=https://wiki.example.org)`);
  const project = spec.slice(0, eq).trim();
  const text = spec.slice(eq + 1).trim();
  if (!PROJECT_CODE_PATTERN.test(project)) {
    throw new UpstreamConfigError(`${where}: "${cut(project)}" is not a project code (lower-case letters, digits and _, starting with a letter, e.g. companywiki)`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UpstreamConfigError(`${where}: ${project}: "${cut(text)}" is not a URL (e.g. https://wiki.example.org)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UpstreamConfigError(`${where}: ${project}: the URL must be http:// or https://, not ${url.protocol}//`);
  if (url.username !== '' || url.password !== '') throw new UpstreamConfigError(`${where}: ${project}: the URL must not hold a user name or password`);
  if (url.search !== '' || url.hash !== '') throw new UpstreamConfigError(`${where}: ${project}: the URL must not have a query or fragment`);
  const path = url.pathname.replace(/\/+$/, '');
  const restPath = path === '' ? DEFAULT_REST_PATH : path.endsWith('rest.php') ? path : `${path}${DEFAULT_REST_PATH}`;
  return { project, origin: url.origin, restUrl: `${url.origin}${restPath}`, apiUrl: `${url.origin}${restPath.replace(/rest\.php$/, 'api.php')}` };
}

/**
 * Mappings written in a list: the environment variable's value (separated by spaces or commas)
 * or a file's text (one a line; `#` starts a comment).
 */
export function parseUpstreamList(text: string, where: string): UpstreamOrigin[] {
  return text
    .split('\n')
    .map((line) => line.replace(/#.*$/, ''))
    .flatMap((line) => line.split(/[\s,]+/))
    .filter((item) => item !== '')
    .map((item) => parseUpstream(item, where));
}

/** The configured wikis by project; a later list wins for a project both name (env, then file, then flags). */
export function mergeUpstreams(...lists: readonly (readonly UpstreamOrigin[])[]): UpstreamOrigin[] {
  const byProject = new Map<string, UpstreamOrigin>();
  for (const list of lists) for (const item of list) byProject.set(item.project, item);
  return [...byProject.values()].sort((a, b) => (a.project < b.project ? -1 : a.project > b.project ? 1 : 0));
}

function cut(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
