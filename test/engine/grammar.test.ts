/** The declarative rules in grammar/: complete, explained, validated once at load, and read by the engine. */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boilerplateTitles, hiddenStyleTest } from '../../src/engine/grammar.js';
import { GRAMMAR_SOURCES, GrammarError, grammarStamp, validateGrammar } from '../../src/engine/grammar/load.js';
import type { GrammarName } from '../../src/engine/grammar/schemas.js';
import { parse } from '../../src/index.js';
import { filesBelow } from '../support/files.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = new URL('../../grammar/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'article.schema.json');
const read = (file: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as Record<string, unknown>;

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

/** The GrammarError `validateGrammar` throws for `data`, or undefined when it passes. */
function refusal(name: GrammarName, data: unknown): GrammarError | undefined {
  try {
    validateGrammar(name, data);
    return undefined;
  } catch (error) {
    if (error instanceof GrammarError) return error;
    throw error;
  }
}

describe('grammar/', () => {
  it.each(files)('%s: every rule says why it exists', (file) => {
    for (const rule of rulesIn(read(file), [])) {
      expect(typeof rule.why === 'string' && rule.why.length > 10, `${file}: ${JSON.stringify(rule.match)} has a why`).toBe(true);
    }
  });

  it('is read by the loader, every file of it, as checked in', () => {
    expect(Object.keys(GRAMMAR_SOURCES).map((n) => `${n}.json`).sort(), 'a file the loader does not know would be read some other way').toEqual([...files].sort());
    for (const file of files) expect(GRAMMAR_SOURCES[file.slice(0, -5) as GrammarName], file).toEqual(read(file));
  });

  it('is loaded nowhere else: no module, script or benchmark outside the loader imports or reads a grammar file', () => {
    const offenders: string[] = [];
    // The scripts and benchmarks too: a tool reading grammar/ around the loader would skip validation.
    for (const dir of ['src', 'scripts', 'bench']) {
      if (!existsSync(join(ROOT, dir))) continue;
      for (const path of filesBelow(join(ROOT, dir))) {
        if (!path.endsWith('.ts') || path.endsWith(join('engine', 'grammar', 'load.ts'))) continue;
        // A quoted path to a grammar file: an import, a read, a URL (backquotes are for prose).
        if (/['"][^'"\s]*grammar\/[\w-]+\.json['"]/.test(readFileSync(path, 'utf8'))) offenders.push(path.slice(ROOT.length));
      }
    }
    expect(offenders).toEqual([]);
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

describe('the grammar loader', () => {
  it.each(files)('accepts %s as checked in', (file) => {
    expect(refusal(file.slice(0, -5) as GrammarName, read(file))).toBeUndefined();
  });

  it('refuses a broken copy, naming the file and the JSON path of each problem', () => {
    const cases: [GrammarName, (d: Record<string, any>) => void, string, RegExp][] = [
      ['noise', (d) => delete d.tags[2].why, '$.tags[2].why', /expected string/],
      ['noise', (d) => (d.clases = d.classes), '$.clases', /not a key/],
      ['noise', (d) => (d.hiddenStyles[0].match = 'Display: None'), '$.hiddenStyles[0].match', /property:value/],
      ['tables', (d) => (d.dataClasses = 'wikitable'), '$.dataClasses', /expected array/],
      ['citations', (d) => (d.templates['cite web'] = 7), '$.templates["cite web"]', /expected string/],
      ['wikitext', (d) => (d.text.rules[0].rule.wrap = ['(']), '$.text.rules[0].rule.wrap', /./],
      ['metadata', (d) => (d.languages[0].direction = 'up'), '$.languages[0].direction', /ltr|rtl/],
      ['projects', (d) => (d.families[0].host = 'wikipedia.org'), '$.families[0].host', /./],
      ['metadata', (d) => delete d.document.config.pageId.why, '$.document.config.pageId.why', /expected string/],
      ['citations', (d) => (d.lists.wrapperGroups[0].group = ''), '$.lists.wrapperGroups[0].group', /./],
      ['citations', (d) => (d.notCitations[0].languages = []), '$.notCitations[0].languages', /./],
      ['parsoid', (d) => (d.transclusionTypeof = d.transclusionTypeofs), '$.transclusionTypeof', /not a key/],
    ];
    for (const [name, breakIt, path, message] of cases) {
      const data = read(`${name}.json`);
      breakIt(data);
      const error = refusal(name, data);
      expect(error?.file, `${path}: the file is named`).toBe(`grammar/${name}.json`);
      expect(error?.issues.map((i) => i.path), `${path}: the path is named`).toContain(path);
      expect(error?.issues.find((i) => i.path === path)?.message, path).toMatch(message);
      expect(error?.message, `${path}: the message says both`).toContain(`grammar/${name}.json`);
      expect(error?.message).toContain(path);
    }
  });

  it('stops a start of the service on a broken grammar file, with one line naming the file and the path', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'wikistruct-broken-grammar-'));
    try {
      for (const part of ['src', 'grammar', 'package.json']) cpSync(join(ROOT, part), join(copy, part), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
      const noise = JSON.parse(readFileSync(join(copy, 'grammar/noise.json'), 'utf8')) as { classes: { why?: string }[] };
      delete noise.classes[3]!.why;
      writeFileSync(join(copy, 'grammar/noise.json'), JSON.stringify(noise));
      const data = join(copy, 'data');
      const run = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--offline', '--port', '0', '--data', data], {
          cwd: copy,
          env: { ...process.env, DATABASE_URL: '' },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stderr }));
      });
      expect(run.code, run.stderr).not.toBe(0);
      expect(run.stderr.trim()).toMatch(/^wikistruct: grammar\/noise\.json is not a valid grammar file: \$\.classes\[3\]\.why: /);
      expect(run.stderr.trim().split('\n'), 'one line, no stack trace').toHaveLength(1);
      expect(existsSync(data), 'nothing was created').toBe(false);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the build\'s grammar stamp (src/engine/grammar/stamp.ts)', () => {
  it('changes with any value of any file, not with the files\' formatting', () => {
    const stamp = grammarStamp();
    expect(stamp).toMatch(/^[0-9a-f]{14}$/);
    expect(grammarStamp(JSON.parse(JSON.stringify(GRAMMAR_SOURCES)) as Record<string, unknown>), 'the same values').toBe(stamp);
    const edited = JSON.parse(JSON.stringify(GRAMMAR_SOURCES)) as Record<string, any>;
    edited.noise.classes[0].match += 'x';
    expect(grammarStamp(edited)).not.toBe(stamp);
  });

  const built = join(ROOT, 'dist/src/engine/grammar/stamp.js');
  it.skipIf(!existsSync(built))('the built CLI takes stamped files as they are and validates edited ones', () => {
    const copy = mkdtempSync(join(tmpdir(), 'wikistruct-stamped-grammar-'));
    try {
      cpSync(join(ROOT, 'dist/src'), join(copy, 'dist/src'), { recursive: true });
      cpSync(join(ROOT, 'dist/grammar'), join(copy, 'dist/grammar'), { recursive: true });
      cpSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
      symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
      const load = join(copy, 'dist/src/engine/grammar/load.js');
      const check = `const m = await import(${JSON.stringify(load)}); console.log(m.GRAMMAR === m.GRAMMAR_SOURCES ? 'as imported' : 'validated');`;
      const run = () => spawnSync(process.execPath, ['--input-type=module', '-e', check], { encoding: 'utf8' });
      expect(readFileSync(built, 'utf8'), 'npm run build stamped it').toContain(`VALIDATED_GRAMMAR_STAMP = "${grammarStamp()}"`);
      expect(run().stdout.trim(), 'the files the build validated').toBe('as imported');
      const file = join(copy, 'dist/grammar/noise.json');
      const noise = JSON.parse(readFileSync(file, 'utf8')) as { classes: { why?: string }[] };
      noise.classes[3]!.why = 'edited after the build, and still a reason long enough';
      writeFileSync(file, JSON.stringify(noise));
      expect(run().stdout.trim(), 'an edited file is validated').toBe('validated');
      delete noise.classes[3]!.why;
      writeFileSync(file, JSON.stringify(noise));
      const broken = run();
      expect(broken.status).not.toBe(0);
      expect(broken.stderr).toContain('grammar/noise.json is not a valid grammar file: $.classes[3].why');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('hidden styles', () => {
  it('follow every declaration of the rules, not only those whose value is "none"', () => {
    const hidden = hiddenStyleTest(['display:none', 'visibility:hidden']);
    expect(hidden('color: red; Visibility : HIDDEN'), 'a new rule works without touching code').toBe(true);
    expect(hidden('display:none')).toBe(true);
    expect(hidden('visibility:visible; border:none')).toBe(false);
    expect(hiddenStyleTest([])('display:none'), 'no rules, nothing hidden').toBe(false);
  });

  it('decide as the full comparison does, the cheap first test never rejecting a match', () => {
    const declarations = ['display:none', 'visibility:hidden', 'opacity:0'];
    const hidden = hiddenStyleTest(declarations);
    const space = fc.constantFrom('', ' ', '  ', '\t', '\n');
    const property = fc.constantFrom('display', 'DISPLAY', 'visibility', 'opacity', 'color', 'border');
    const value = fc.constantFrom('none', 'None', 'hidden', 'HIDDEN', '0', 'red', 'block', 'visible');
    const declaration = fc.tuple(space, property, space, space, value, space).map(([a, p, b, c, v, d]) => `${a}${p}${b}:${c}${v}${d}`);
    fc.assert(
      fc.property(fc.array(declaration, { maxLength: 4 }), (parts) => {
        const style = parts.join(';');
        const compact = style.replace(/\s+/g, '').toLowerCase();
        expect(hidden(style)).toBe(declarations.some((d) => compact.includes(d)));
      }),
    );
  });
});
