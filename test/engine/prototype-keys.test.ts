/**
 * Names that are also Object.prototype's keys, wherever a page or an envelope may put them: a
 * language code, a wiki's database name, a namespace prefix, a template, a parameter, a reference
 * group. The engine looks such names up in tables of its own; a table that is a plain object
 * answered `lang="__proto__"` with Object.prototype and threw a TypeError out of the engine (found
 * by the fuzz harness; src/engine/wiki/data.ts). Every door must give an Article or a typed error.
 */
import { describe, expect, it } from 'vitest';
import { ArticleSchema, parse, parseEnvelope, parseWikitext, WikistructError } from '../../src/index.js';

const KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'];

function html(key: string): string {
  return (
    `<html lang="${key}"><head><base href="//${key}.wikipedia.org/wiki/"/><title>${key}</title>` +
    `<meta property="mw:pageNamespace" content="0"/></head><body lang="${key}" class="mw-content-ltr sitedir-ltr ${key}">` +
    `<section data-mw-section-id="0"><table class="infobox ${key}"><tbody><tr><th>${key}</th><td><a rel="mw:WikiLink" href="./${key}:${key}">${key}</a></td></tr></tbody></table>` +
    `<p id="${key}"><b>${key}</b> is a page<sup about="#mwt1" class="mw-ref reference" typeof="mw:Extension/ref" data-mw='{"name":"ref","attrs":{"group":"${key}","name":"${key}"}}'><a href="./${key}#cite_note-${key}-1"><span class="mw-reflink-text">[${key} 1]</span></a></sup>.</p>` +
    `<span about="#mwt2" typeof="mw:Transclusion" data-mw='{"parts":[{"template":{"target":{"wt":"${key}","href":"./Template:${key}"},"params":{"${key}":{"wt":"${key}"}},"i":0}}]}'>${key}</span></section>` +
    `<section data-mw-section-id="1"><h2 id="${key}">${key}</h2><ol class="mw-references references" typeof="mw:Extension/references" data-mw='{"name":"references","attrs":{"group":"${key}"}}'><li id="cite_note-${key}-1"><span class="mw-reference-text">${key}</span></li></ol></section></body></html>`
  );
}

function wikitext(key: string): string {
  return `{{${key}|${key}=${key}}}\n{{Infobox ${key}\n| ${key} = [[${key}:${key}|${key}]]\n}}\n'''${key}''' is a page.<ref name="${key}" group="${key}">${key}</ref> [[${key}]] {{#${key}:${key}}} __${key.toUpperCase()}__\n\n== ${key} ==\n<references group="${key}"/>\n[[Category:${key}]] [[${key}:${key}]]`;
}

/** An Article that passes the schema, or a typed error: nothing else may come out. */
function articleOrTyped(run: () => unknown): void {
  try {
    ArticleSchema.parse(run());
  } catch (error) {
    expect(error, String(error instanceof Error ? error.stack : error)).toBeInstanceOf(WikistructError);
  }
}

describe('names that are keys of Object.prototype', () => {
  it.each(KEYS)('%s as language, wiki, namespace, template, parameter and group: an Article or a typed error, through every door', (key) => {
    articleOrTyped(() => parse(html(key)));
    articleOrTyped(() => parseEnvelope({ name: key, identifier: 1, in_language: { identifier: key }, is_part_of: { identifier: key }, article_body: { html: html(key) } }));
    articleOrTyped(() => parseEnvelope({ name: key, in_language: { identifier: key }, is_part_of: { identifier: key }, article_body: { wikitext: wikitext(key) } }));
    articleOrTyped(() => parseWikitext(wikitext(key), { name: key, project: key, language: key }));
    articleOrTyped(() => parseWikitext(wikitext(key), { name: key, project: `${key}wiki` }));
  });
});
