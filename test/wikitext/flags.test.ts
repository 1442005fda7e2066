/**
 * Flag templates (issue 23): a country template named by a code ({{JPN}}, {{PRC}}, dewiki {{USA}})
 * reads as the country's name in the article's language, so the separator written after it is
 * not left alone; a flag-icon template reads as nothing, its code never text. Real calls of the
 * corpus (jawiki__高橋留美子, jawiki__日本, dewiki__Berlin, ukwiki, frwiki__Autriche).
 */
import { describe, expect, it } from 'vitest';
import { parseWikitext } from '../../src/index.js';
import type { Article, Part } from '../../src/index.js';

const read = (text: string, project: string): Article => parseWikitext(text, { name: 'Page', project, language: project.replace(/wiki$/, '') });
const field = (a: Article, name: string): string | undefined => {
  const all: Part[] = [];
  const walk = (ps: readonly Part[] | undefined): void => {
    for (const p of ps ?? []) {
      if (p.type === 'field') all.push(p);
      walk(p.has_parts);
    }
  };
  walk(a.infoboxes);
  return all.find((f) => f.name === name)?.value;
};

describe('country templates named by a code', () => {
  it('read as the country in an infobox value, the separator after them kept in place (jawiki)', () => {
    const a = read('{{Infobox 漫画家\n| 名前 = 高橋 留美子\n| 生地 = {{JPN}}・[[新潟県]][[新潟市]]\n| 国籍 = {{JPN}}\n}}\n高橋留美子は漫画家。', 'jawiki');
    expect(field(a, '生地')).toBe('日本・新潟県新潟市');
    expect(field(a, '国籍')).toBe('日本');
  });
  it('read as the country in running text, in the article\'s language (jawiki, dewiki)', () => {
    expect(read('{{SIN}} :日本にとって初の自由貿易協定締結国である。', 'jawiki').abstract).toBe('シンガポール:日本にとって初の自由貿易協定締結国である。');
    expect(read('Größte Gruppe: {{TUR}}, dann {{POL}}.', 'dewiki').abstract).toBe('Größte Gruppe: Türkei, dann Polen.');
  });
  it('show the place a target parameter names instead (dewiki {{USA|Ziel=Los Angeles}})', () => {
    expect(read('Partnerstädte: {{USA|Ziel=Los Angeles}}, [[Vereinigte Staaten]].', 'dewiki').abstract).toBe('Partnerstädte: Los Angeles, Vereinigte Staaten.');
  });
});

describe('flag icons read as nothing, their code never text', () => {
  it.each([
    ['ukwiki', '{{прапорець|AUS|size=50px|link=Прапор Австралії}} [[Австралія]]', 'Австралія'],
    ['frwiki', '{{drapeau|ONU}} [[Organisation des Nations unies]]', 'Organisation des Nations unies'],
    ['ruwiki', '{{Флаг|Китай}} [[Пекин]] (1994 год)', 'Пекин (1994 год)'],
    ['trwiki', '{{bayraksimge|Almanya}} [[Berlin]]', 'Berlin'],
  ])('%s %s', (project, text, expected) => {
    expect(read(text, project).abstract).toBe(expected);
  });
});
