/**
 * GET|POST /v2/projects and /v2/projects/{identifier}: the projects the store holds articles of
 * (kept between requests, catalog.ts); a single project answers for any code whose wiki
 * grammar/projects.json places, stored or not: it can be fetched on demand.
 */
import { project } from '../../../content/enterprise/metadata.js';
import { ProjectModel } from '../../../content/enterprise/models.js';
import { listingRoutes } from '../listing.js';

export const projectsRoutes = listingRoutes({
  path: '/v2/projects',
  model: ProjectModel,
  label: 'Project',
  list: (content) => content.catalog.projects(),
  item: async (content, id) => project(id) ?? (await content.catalog.projects()).find((p) => p.identifier === id),
  missing: (id) => `no project "${id}" (not a code of a known wiki, e.g. enwiki, frwiktionary, nor of a stored article)`,
  docs: { summary: 'Projects the store holds articles of', filterExample: 'in_language.identifier:en', identifier: 'Project code, e.g. enwiki' },
});
