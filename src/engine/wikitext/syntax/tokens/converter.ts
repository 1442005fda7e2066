/**
 * `-{flags|rules}-`: wikiparser-node's ConverterToken (src/converter.js) with its
 * ConverterFlagsToken (`converter-flags`, one `converter-flag` atom per flag, src/converterFlags.js)
 * and ConverterRuleTokens (`converter-rule`: an optional `converter-rule-from`, the
 * `converter-rule-variant` atom and the `converter-rule-to`, src/converterRule.js). ../variants.ts
 * reads them. The rules' parts are plain tokens no stage reads (the converter is the last stage).
 */
import type { Config } from 'wikiparser-node';
import { PlainToken, Token } from '../token.js';
import type { ParseState } from '../token.js';
import { SyntaxToken } from './syntax.js';

const COMMENTS = /\0\d+[cn]\x7F/gu;

/** After every stage (wikiparser-node's MAX_STAGE). */
const NEVER = 11;

function ruleFromTo(text: string, type: 'to' | 'from', state: ParseState): Token {
  const token = new PlainToken(`converter-rule-${type}`, state, text);
  token.stage = NEVER;
  return token;
}

export class ConverterFlagsToken extends Token {
  constructor(flags: readonly string[], state: ParseState) {
    super('converter-flags', state);
    for (const flag of flags) this.append(new SyntaxToken('converter-flag', state, flag));
  }

  override toString(): string {
    return this.childNodes.map(String).join(';');
  }

  override text(): string {
    return this.childNodes.map((c) => c.text()).join(';');
  }
}

export class ConverterRuleToken extends Token {
  constructor(rule: string, hasColon: boolean, config: Config, state: ParseState) {
    super('converter-rule', state);
    const i = rule.indexOf(':');
    const j = rule.slice(0, i).indexOf('=>');
    const v = j === -1 ? rule.slice(0, i) : rule.slice(j + 2, i);
    if (hasColon && config.variants.includes(v.trim().toLowerCase())) {
      const variant = new SyntaxToken('converter-rule-variant', state, v);
      const to = ruleFromTo(rule.slice(i + 1), 'to', state);
      if (j === -1) this.append(variant, to);
      else this.append(ruleFromTo(rule.slice(0, j), 'from', state), variant, to);
    } else this.append(ruleFromTo(rule, 'to', state));
  }

  override toString(): string {
    const { childNodes } = this;
    return childNodes.length === 3
      ? `${childNodes[0]!.toString()}=>${childNodes[1]!.toString()}:${childNodes[2]!.toString()}`
      : childNodes.map(String).join(':');
  }

  override text(): string {
    const { childNodes } = this;
    return childNodes.length === 3
      ? `${childNodes[0]!.text()}=>${childNodes[1]!.text()}:${childNodes[2]!.text()}`
      : childNodes.map((c) => c.text()).join(':');
  }
}

export class ConverterToken extends Token {
  constructor(flags: readonly string[], rules: readonly string[], state: ParseState) {
    super('converter', state);
    const { config } = state;
    this.append(new ConverterFlagsToken(flags, state));
    const firstRule = rules[0]!;
    const hasColon = firstRule.includes(':');
    const firstRuleToken = new ConverterRuleToken(firstRule, hasColon, config, state);
    if (hasColon ? firstRuleToken.childNodes.length === 1 : rules.length === 2 && !rules[1]!.replace(COMMENTS, '').trim()) {
      // The first rule's token stays in the accum unused, as in the library.
      this.append(new ConverterRuleToken(rules.join(';'), false, config, state));
    } else {
      this.append(firstRuleToken);
      for (let k = 1; k < rules.length; k++) this.append(new ConverterRuleToken(rules[k]!, true, config, state));
    }
  }

  override toString(): string {
    const [flags, ...rules] = this.childNodes;
    return `-{${flags!.toString()}${flags!.childNodes.length > 0 ? '|' : ''}${rules.map(String).join(';')}}-`;
  }

  override text(): string {
    const [flags, ...rules] = this.childNodes;
    return `-{${flags!.text()}|${rules.map((r) => r.text()).join(';')}}-`;
  }
}
