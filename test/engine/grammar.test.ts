/** The declarative rules in grammar/: complete, explained, and read by the engine. */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { boilerplateTitles } from '../../src/engine/grammar.js';
import { parse } from '../../src/index.js';

const dir = new URL('../../grammar/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'article.schema.json');

interface Rule {
  match?: unknown;
  why?: unknown;
}

function rulesIn(value: unknown, out: Rule[]): Rule[] {
  if (Array.isArray(value)) for (const v of value) rulesIn(v, out);
  else if (typeof value === 'object' && value !== null) {
    if ('match' in value) out.push(value as Rule);
    else for (const v of Object.values(value)) rulesIn(v, out);
  }
  return out;
}

describe('grammar/', () => {
  it.each(files)('%s: every rule says why it exists', (file) => {
    const data = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as unknown;
    for (const rule of rulesIn(data, [])) {
      expect(typeof rule.why === 'string' && rule.why.length > 10, `${file}: ${JSON.stringify(rule.match)} has a why`).toBe(true);
    }
  });

  it('names boilerplate sections in every language the engine promises', () => {
    const titles: Record<string, string> = {
      en: 'see also', de: 'einzelnachweise', fr: 'notes et références', es: 'referencias', pt: 'referências', it: 'voci correlate',
      nl: 'externe links', id: 'pranala luar', cy: 'cyfeiriadau', bg: 'източници', cs: 'externí odkazy', bs: 'vanjski linkovi', simple: 'other websites',
    };
    for (const [lang, title] of Object.entries(titles)) expect(boilerplateTitles(lang).has(title), `${lang}: ${title}`).toBe(true);
  });

  it('drops a boilerplate section only in its own language when the language is known', () => {
    const page = (lang: string): string =>
      `<html lang="${lang}"><body><section data-mw-section-id="0"><p>Lead.</p></section><section data-mw-section-id="1"><h2>Literatur</h2><p>Body.</p></section></body></html>`;
    expect(parse(page('de')).sections.map((s) => s.name), 'de: Literatur is boilerplate').toEqual(['abstract']);
    expect(parse(page('en')).sections.map((s) => s.name), 'en: an English article may have a section named Literatur').toEqual(['abstract', 'Literatur']);
  });
});
