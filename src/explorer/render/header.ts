/** The top of an Article: its name (linked to the page), description, abstract and identity. */
import type { Article } from '../../schema/article.js';
import { esc, safeUrl } from '../html.js';
import { plural } from './outline.js';

export function renderHeader(article: Article): string {
  const name = article.name ?? '(no name)';
  const url = safeUrl(article.url);
  const title = url === undefined ? esc(name) : `<a href="${esc(url)}" rel="noopener noreferrer" target="_blank">${esc(name)}</a>`;
  const facts: [string, string | undefined][] = [
    ['project', article.is_part_of?.identifier],
    ['language', article.in_language?.identifier],
    ['page id', article.identifier === undefined ? undefined : String(article.identifier)],
    ['revision', article.version === undefined ? undefined : String(article.version.identifier)],
    ['modified', article.date_modified],
    ['Wikidata', article.main_entity?.identifier],
  ];
  const shown = facts.filter((f): f is [string, string] => f[1] !== undefined);
  const counts = [
    plural(countSections(article.sections), 'section'),
    plural(article.infoboxes.length, 'infobox', 'infoboxes'),
    plural(article.tables.length, 'table'),
    plural(article.references.length, 'reference'),
  ];
  return (
    `<h2 class="article-name" tabindex="-1">${title}</h2>` +
    (article.description === undefined ? '' : `<p class="description">${esc(article.description)}</p>`) +
    `<dl class="facts">${shown.map(([k, v]) => `<div><dt>${esc(k)}</dt><dd>${esc(v)}</dd></div>`).join('')}<div><dt>contains</dt><dd>${counts.join(', ')}</dd></div></dl>` +
    (article.abstract === undefined ? '<p class="abstract empty">No abstract.</p>' : `<p class="abstract" tabindex="0" aria-label="Abstract"><span class="label">Abstract</span> ${esc(article.abstract)}</p>`)
  );
}

function countSections(sections: Article['sections']): number {
  let n = 0;
  const stack = [...sections];
  while (stack.length > 0) {
    const part = stack.pop()!;
    if (part.type !== 'section') continue;
    n += 1;
    for (const child of part.has_parts ?? []) stack.push(child);
  }
  return n;
}
