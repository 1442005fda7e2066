/**
 * The rest of the Enterprise API beside structured contents: article lookup (articles-routes.ts),
 * the metadata endpoints (meta-routes.ts) and structured snapshots (snapshot-routes.ts).
 * Registered inside the content routes' plugin, so they share its body parsing and compression.
 */
import type { FastifyPluginAsync } from 'fastify';
import { articlesRoutes } from './articles-routes.js';
import type { EnterpriseRoutesOptions } from './http.js';
import { metaRoutes } from './meta-routes.js';
import { snapshotRoutes } from './snapshot-routes.js';

export type { EnterpriseRoutesOptions } from './http.js';

export const enterpriseRoutes: FastifyPluginAsync<EnterpriseRoutesOptions> = async (app, options) => {
  await app.register(articlesRoutes, options);
  await app.register(metaRoutes, options);
  await app.register(snapshotRoutes, options);
};
