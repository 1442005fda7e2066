/**
 * GET|POST /v2/projects and /v2/projects/{identifier}: every open Wikimedia wiki (the bundled
 * table), the wikis configured with `--upstream`, and any other project the store holds articles
 * of (catalog.ts); a single project also answers for any code whose wiki is known or
 * grammar/projects.json places, listed or not: it can be fetched on demand.
 */
import { project } from '../../../content/enterprise/metadata.js';
import { ProjectModel } from '../../../content/enterprise/models.js';
import { listingRoutes } from '../listing.js';

export const projectsRoutes = listingRoutes({
  path: '/v2/projects',
  model: ProjectModel,
  label: 'Project',
  list: (content) => content.catalog.projects(),
  // The listed one first: a configured wiki's code may look like a family's (companywiki).
  item: async (content, id) => (await content.catalog.projects()).find((p) => p.identifier === id) ?? project(id),
  missing: (id) => `no project "${id}" (not a code of a known wiki, e.g. enwiki, frwiktionary, nor of a configured wiki or a stored article)`,
  docs: { summary: 'Every open Wikimedia project, the configured wikis and the stored projects', filterExample: 'in_language.identifier:en', identifier: 'Project code, e.g. enwiki' },
});
