/**
 * Regular snapshots (the Enterprise Snapshot API): every stored article of a project and
 * namespace as its Enterprise article envelope, metadata and `article_body` (html, wikitext) as
 * /v2/articles answers it (routes.ts for the list, info and download; src/service/snapshots for
 * the builds).
 */
import type { RouteEntry } from '../../route.js';
import { snapshotRoutes } from './routes.js';

export const articleSnapshotsRoutes: readonly RouteEntry[] = snapshotRoutes({
  kind: 'articles',
  path: '/v2/snapshots',
  label: 'snapshot',
  holds: 'Enterprise articles (metadata and article_body)',
});
