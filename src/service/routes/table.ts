/**
 * The route table: every route the service answers besides the explorer's page, one entry each
 * (route.ts), in folders that follow their URLs. A new endpoint is a new entry in the folder of
 * its URL, added here; it is then registered (register.ts), validated (validate.ts) and
 * documented in its OpenAPI document (openapi.ts) with nothing else to write.
 */
import { healthRoutes } from './health.js';
import type { RouteEntry } from './route.js';
import { v1Routes } from './v1/index.js';
import { articlesRoutes } from './v2/articles/index.js';
import { codesRoutes } from './v2/codes/index.js';
import { languagesRoutes } from './v2/languages/index.js';
import { namespacesRoutes } from './v2/namespaces/index.js';
import { v2OpenApiRoutes } from './v2/openapi.js';
import { parseRoutes } from './v2/parse/index.js';
import { projectsRoutes } from './v2/projects/index.js';
import { articleSnapshotsRoutes } from './v2/snapshots/index.js';
import { structuredSnapshotsRoutes } from './v2/snapshots/structured-contents/index.js';
import { sourceRoutes } from './v2/source/index.js';
import { structuredContentsRoutes } from './v2/structured-contents/index.js';

export const ROUTES: readonly RouteEntry[] = [
  ...healthRoutes,
  ...v1Routes,
  ...structuredContentsRoutes,
  ...articlesRoutes,
  ...projectsRoutes,
  ...codesRoutes,
  ...languagesRoutes,
  ...namespacesRoutes,
  ...structuredSnapshotsRoutes,
  ...articleSnapshotsRoutes,
  ...parseRoutes,
  ...sourceRoutes,
  ...v2OpenApiRoutes,
];
