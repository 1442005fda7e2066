/** GET|POST /v2/codes and /v2/codes/{identifier}: the project types grammar/metadata.json names, then any other of a listed project (metadata.ts). */
import { codes } from '../../../content/enterprise/metadata.js';
import { CodeModel } from '../../../content/enterprise/models.js';
import { listingRoutes } from '../listing.js';

export const codesRoutes = listingRoutes({
  path: '/v2/codes',
  model: CodeModel,
  label: 'Code',
  list: async () => [...codes()],
  item: async (_content, id) => codes().find((c) => c.identifier === id),
  missing: (id) => `no project code "${id}"; expected one of ${codes().map((c) => c.identifier).join(', ')}`,
  docs: { summary: 'Project types (codes)', filterExample: 'identifier:wiki', identifier: 'Project type, e.g. wiki' },
});
