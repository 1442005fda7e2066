/**
 * An upstream article as a Wikimedia Enterprise-style envelope, so that `parse()` fills the
 * Article's metadata from the wiki's own answer (page id, revision, date, license) rather than
 * from what the HTML happens to carry.
 */
import { projectOfHost, type Envelope } from '../../../index.js';
import type { UpstreamArticle } from './wiki-client.js';

export function upstreamEnvelope({ html, meta }: UpstreamArticle): Envelope {
  const envelope: Envelope = {
    name: meta.name,
    identifier: meta.identifier,
    url: meta.url,
    date_modified: meta.dateModified,
    version: { identifier: meta.revision },
    is_part_of: { identifier: meta.project, url: meta.siteUrl },
    article_body: { html },
  };
  const language = meta.language ?? projectOfHost(new URL(meta.siteUrl).hostname)?.language;
  if (language !== undefined) envelope.in_language = { identifier: language };
  if (meta.license !== undefined) envelope.license = [{ name: meta.license.name, url: meta.license.url }];
  return envelope;
}
