/**
 * GET|POST /v2/languages and /v2/languages/{identifier}: the languages of every open Wikimedia
 * wiki, of the configured wikis and of the stored articles (catalog.ts); a single language
 * answers for those and every language grammar/metadata.json names.
 */
import { knownLanguage, language } from '../../../content/enterprise/metadata.js';
import { LanguageModel } from '../../../content/enterprise/models.js';
import { listingRoutes } from '../listing.js';

export const languagesRoutes = listingRoutes({
  path: '/v2/languages',
  model: LanguageModel,
  label: 'Language',
  list: (content) => content.catalog.languages(),
  item: async (content, id) => {
    if (knownLanguage(id)) return language(id);
    return (await content.catalog.languages()).find((l) => l.identifier === id);
  },
  missing: (id) => `no language "${id}" (not the language of a Wikimedia wiki, a configured wiki or a stored article)`,
  docs: { summary: 'Languages of the listed projects and the stored articles', filterExample: 'direction:rtl', identifier: 'Language code, e.g. en' },
});
