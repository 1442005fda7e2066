/**
 * Stage 10, language conversion `-{…}-`: wikiparser-node's parser/converter.js; its wrapper runs
 * only on a wiki with variants (`config.variants`, see ../../tree.ts). Blocks nest: the innermost
 * closes first. Rules split at a `;` before a variant's `code:` (or at the end), entities' `;` kept.
 */
import type { Config } from 'wikiparser-node';
import type { ParseState, Stage, Token } from '../token.js';
import { ConverterToken } from '../tokens/converter.js';

// Keyed by the variants: an extension tag's content has its own configuration object.
const regexes = new Map<string, RegExp>();
function ruleSplit(config: Config): RegExp {
  const key = config.variants.join('|');
  let re = regexes.get(key);
  if (re === undefined) {
    re = new RegExp(String.raw`;(?=(?:[^;]*?=>)?\s*(?:${key})\s*:|(?:\s|\0\d+[cn]\x7F)*$)`, 'iu');
    regexes.set(key, re);
  }
  return re;
}

const ENTITY = /(&[#a-z\d]+);/giu;
const HIDDEN_SEMICOLON = /\x01/gu;

export function parseConverterText(input: string, state: ParseState): string {
  const { config, accum } = state;
  const split = ruleSplit(config);
  const regex1 = /-\{/gu;
  const regex2 = /-\{|\}-/gu;
  const stack: RegExpExecArray[] = [];
  let text = input;
  let regex = regex1;
  let mt = regex.exec(text);
  while (mt) {
    const { 0: syntax, index } = mt;
    if (syntax === '}-') {
      const top = stack.pop()!;
      const { length } = accum;
      const str = text.slice(top.index + 2, index);
      const i = str.indexOf('|');
      const flags = i === -1 ? [] : str.slice(0, i).split(';');
      const raw = i === -1 ? str : str.slice(i + 1);
      const rules = raw
        .replace(ENTITY, '$1\x01')
        .split(split)
        .map((rule) => rule.replace(HIDDEN_SEMICOLON, ';'));
      new ConverterToken(flags, rules, state);
      text = `${text.slice(0, top.index)}\0${length}v\x7F${text.slice(index + 2)}`;
      if (stack.length === 0) regex = regex1;
      regex.lastIndex = top.index + 3 + String(length).length;
    } else {
      stack.push(mt);
      regex = regex2;
      regex.lastIndex = index + 2;
    }
    mt = regex.exec(text);
  }
  return text;
}

export const parseConverter: Stage = (token: Token, state: ParseState) => {
  // A text without `-{` comes back as it went in.
  if (state.config.variants.length > 0 && token.raw!.includes('-{')) token.raw = parseConverterText(token.raw!, state);
};
