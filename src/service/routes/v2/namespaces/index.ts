/** GET|POST /v2/namespaces and /v2/namespaces/{identifier}: the namespaces of grammar/metadata.json. */
import { namespaces } from '../../../content/enterprise/metadata.js';
import { NamespaceModel } from '../../../content/enterprise/models.js';
import { unprocessable } from '../../../errors.js';
import { listingRoutes } from '../listing.js';

export const namespacesRoutes = listingRoutes({
  path: '/v2/namespaces',
  model: NamespaceModel,
  label: 'Namespace',
  list: async () => [...namespaces()],
  item: async (_content, id) => {
    if (!/^-?\d{1,9}$/.test(id)) throw unprocessable(`identifier: a namespace identifier is an integer, got "${id}"`);
    return namespaces().find((n) => n.identifier === Number(id));
  },
  missing: (id) => `no namespace ${id}; expected one of ${namespaces().map((n) => n.identifier).join(', ')}`,
  docs: { summary: 'Namespaces', filterExample: 'identifier:0', identifier: 'Namespace number, e.g. 0', identifierType: 'integer' },
});
