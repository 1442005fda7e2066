/**
 * The metadata endpoints: /v2/codes, /v2/languages, /v2/projects, /v2/namespaces, each a list
 * and a single item, in the Enterprise models (listing.ts has the request handling).
 *
 * What exists: the project types of grammar/projects.json's families; the projects the store
 * holds articles of (a single project answers for any code whose wiki grammar/projects.json
 * places, stored or not: it can be fetched on demand); the languages of those projects and
 * articles (a single language answers for those and every language grammar/metadata.json names);
 * the namespaces of grammar/metadata.json. The stored projects and languages are kept between
 * requests (catalog.ts), not scanned for each.
 */
import type { FastifyPluginAsync } from 'fastify';
import { unprocessable } from '../../errors.js';
import type { EnterpriseRoutesOptions } from './http.js';
import { registerListing } from './listing.js';
import { codes, knownLanguage, language, namespaces, project } from './metadata.js';
import { CodeModel, LanguageModel, NamespaceModel, ProjectModel } from './models.js';

export const metaRoutes: FastifyPluginAsync<EnterpriseRoutesOptions> = async (app, options) => {
  registerListing(app, options, {
    path: '/codes',
    model: CodeModel,
    label: 'Code',
    list: async () => [...codes()],
    item: async (id) => codes().find((c) => c.identifier === id),
    missing: (id) => `no project code "${id}"; expected one of ${codes().map((c) => c.identifier).join(', ')}`,
  });
  registerListing(app, options, {
    path: '/languages',
    model: LanguageModel,
    label: 'Language',
    list: () => options.catalog.languages(),
    item: async (id) => {
      if (knownLanguage(id)) return language(id);
      return (await options.catalog.languages()).find((l) => l.identifier === id);
    },
    missing: (id) => `no language "${id}" (neither named in grammar/metadata.json nor of a stored article)`,
  });
  registerListing(app, options, {
    path: '/projects',
    model: ProjectModel,
    label: 'Project',
    list: () => options.catalog.projects(),
    item: async (id) => project(id) ?? (await options.catalog.projects()).find((p) => p.identifier === id),
    missing: (id) => `no project "${id}" (not a code of a known wiki, e.g. enwiki, frwiktionary, nor of a stored article)`,
  });
  registerListing(app, options, {
    path: '/namespaces',
    model: NamespaceModel,
    label: 'Namespace',
    list: async () => [...namespaces()],
    item: async (id) => {
      if (!/^-?\d{1,9}$/.test(id)) throw unprocessable(`identifier: a namespace identifier is an integer, got "${id}"`);
      return namespaces().find((n) => n.identifier === Number(id));
    },
    missing: (id) => `no namespace ${id}; expected one of ${namespaces().map((n) => n.identifier).join(', ')}`,
  });
};
