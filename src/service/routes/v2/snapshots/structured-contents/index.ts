/**
 * Structured snapshots: every stored article of a project and namespace as structured Article
 * JSON lines (routes.ts for the list, info and download; src/service/snapshots for the builds).
 */
import type { RouteEntry } from '../../../route.js';
import { snapshotRoutes } from '../routes.js';

export const structuredSnapshotsRoutes: readonly RouteEntry[] = snapshotRoutes({
  kind: 'structured',
  path: '/v2/snapshots/structured-contents',
  label: 'structured snapshot',
  holds: 'structured Articles',
});
