/**
 * The work one page may cause, in proportion to its size. A few constructs multiply: a table cell
 * spanning 1000 columns and 1000 rows fills a million grid slots, each repeating its text, links
 * and citations; a short first row and a long column pad every row to the full width. A 100 KB
 * page of such tables once asked for 45 million cells and killed the process. So each parse gets a
 * `WorkBudget` made from its input size, the places that multiply work charge it before doing the
 * work, and going over refuses the page with `InputTooComplexError` (code `INPUT_TOO_COMPLEX`)
 * rather than running out of memory.
 *
 * Each limit is max(floor, perByte × input bytes). The per-byte rates are about ten times (or more)
 * the largest ratio any article of the real corpus reaches, and never below what markup makes
 * without multiplying (test/engine/budget.test.ts parses every corpus input, both doors, and fails
 * if one uses half of a limit); the floors let small pages and fragments through whatever their
 * density. What is charged, and where:
 *
 * - `cells`, `cellText`, and the links and citations of table cells: at span expansion
 *   (table/build.ts `expand`, shared by both doors), once per grid slot a cell fills, before the
 *   slots are filled; padding slots at layout (`layOut`).
 * - `parts`, `links`, `citations`, `references`, `depth`: on what a front door extracted, before
 *   the back half assembles it (`extracted`). These grow with the input only (each needs its own
 *   markup), so they are a net under the tables' accounting and a bound for whoever serializes or
 *   stores the Article, not a fix of a known multiplier.
 */
import type { Part } from '../schema/article.js';
import { InputTooComplexError } from './errors.js';
import type { Extracted } from './extracted.js';

interface LimitRule {
  /** The limit for any input up to `floor / perByte` bytes. */
  readonly floor: number;
  /** Allowance per byte of input (UTF-8) above that. */
  readonly perByte: number;
  /** What is counted, as the error message names it. */
  readonly what: string;
}

/**
 * The limits (docs/security.md, "Engine work limits", lists them with the corpus maxima they were
 * chosen from). Corpus maxima per byte, over 194 inputs (92 HTML pages, 12 envelopes through both
 * doors, 78 wikitexts): cells 0.026, cell text 0.36, parts 0.022, links 0.022, citations 0.0021,
 * references 0.0019; part depth at most 16.
 */
export const WORK_LIMITS = {
  cells: { floor: 50_000, perByte: 0.5, what: 'table cells (a spanned cell counts once per slot it fills, padding included)' },
  cellText: { floor: 2_000_000, perByte: 4, what: 'characters of table cell text (a spanned cell counts once per slot it fills)' },
  parts: { floor: 20_000, perByte: 0.5, what: 'parts (sections, paragraphs, lists, list items, fields, images…)' },
  links: { floor: 20_000, perByte: 0.25, what: 'links (a spanned table cell counts once per slot it fills)' },
  citations: { floor: 10_000, perByte: 0.1, what: 'citations (a spanned table cell counts once per slot it fills)' },
  references: { floor: 10_000, perByte: 0.1, what: 'references' },
  depth: { floor: 256, perByte: 0, what: 'levels of nested parts' },
} as const satisfies Record<string, LimitRule>;

export type WorkLimit = keyof typeof WORK_LIMITS;

const LIMIT_NAMES = Object.keys(WORK_LIMITS) as WorkLimit[];

/** The limits of a page of `inputBytes` UTF-8 bytes. */
export function workLimits(inputBytes: number): Record<WorkLimit, number> {
  const out = {} as Record<WorkLimit, number>;
  for (const name of LIMIT_NAMES) {
    const rule: LimitRule = WORK_LIMITS[name];
    out[name] = Math.max(rule.floor, Math.floor(rule.perByte * inputBytes));
  }
  return out;
}

/** `table cells (…)`, and how the limit is computed, for the error message. */
function describe(limit: WorkLimit): string {
  const rule: LimitRule = WORK_LIMITS[limit];
  return rule.perByte === 0 ? `${rule.what}; limit "${limit}": ${rule.floor}` : `${rule.what}; limit "${limit}": the larger of ${rule.floor} and ${rule.perByte} per byte`;
}

/** What a table cell repeats in every grid slot it fills. */
interface SpannedCell {
  readonly value: string;
  readonly links?: readonly unknown[] | undefined;
  readonly citations?: readonly unknown[] | undefined;
}

export class WorkBudget {
  private readonly used: Record<WorkLimit, number>;
  /**
   * Limits no larger than the real ones, known without counting bytes: those of `text.length`
   * (a string has at least as many UTF-8 bytes as UTF-16 code units). A count below them is under
   * its limit, which is nearly always: the bytes are counted only when one is passed. Counting
   * them up front cost about 2 % of a parse (a full scan of every page).
   */
  private readonly lower: Readonly<Record<WorkLimit, number>>;
  private bytes: number | undefined;
  private exact: Readonly<Record<WorkLimit, number>> | undefined;

  /** A page of `inputBytes` UTF-8 bytes, or of text `text` (counted only when a limit comes near). */
  constructor(inputBytes: number, private readonly text?: string) {
    if (text === undefined) {
      this.bytes = inputBytes;
      this.exact = workLimits(inputBytes);
      this.lower = this.exact;
    } else {
      this.lower = workLimits(inputBytes);
    }
    this.used = { cells: 0, cellText: 0, parts: 0, links: 0, citations: 0, references: 0, depth: 0 };
  }

  /** The budget of a page whose text is `text` (HTML or wikitext). */
  static of(text: string): WorkBudget {
    return new WorkBudget(text.length, text);
  }

  /** The input's size in UTF-8 bytes. */
  get inputBytes(): number {
    return (this.bytes ??= Buffer.byteLength(this.text!, 'utf8'));
  }

  get limits(): Readonly<Record<WorkLimit, number>> {
    return (this.exact ??= workLimits(this.inputBytes));
  }

  /** Adds `amount` to a counter; throws InputTooComplexError once it is over its limit. */
  charge(limit: WorkLimit, amount: number): void {
    const used = (this.used[limit] += amount);
    if (used > this.lower[limit] && used > this.limits[limit]) {
      throw new InputTooComplexError(limit, this.limits[limit], this.inputBytes, describe(limit));
    }
  }

  /** A table cell about to fill `slots` grid slots, each a copy of its text, links and citations. */
  spanned(cell: SpannedCell, slots: number): void {
    this.charge('cells', slots);
    this.charge('cellText', slots * cell.value.length);
    if (cell.links !== undefined) this.charge('links', slots * cell.links.length);
    if (cell.citations !== undefined) this.charge('citations', slots * cell.citations.length);
  }

  /**
   * What a front door extracted: every part of the sections and infoboxes (walked with a stack, so
   * a deep tree costs no recursion), their links and citations, how deep they nest, and the
   * reference-list entries.
   */
  extracted(x: Extracted): void {
    this.charge('references', x.references.length);
    const parts: Part[] = [];
    const depths: number[] = [];
    for (const root of [x.sections, x.infoboxes]) {
      for (const part of root) {
        parts.push(part);
        depths.push(1);
      }
    }
    let deepest = 0;
    while (parts.length > 0) {
      const part = parts.pop()!;
      const depth = depths.pop()!;
      this.charge('parts', 1);
      if (part.links !== undefined) this.charge('links', part.links.length);
      if (part.citations !== undefined) this.charge('citations', part.citations.length);
      if (depth > deepest) {
        this.charge('depth', depth - deepest);
        deepest = depth;
      }
      if (part.has_parts !== undefined) {
        for (const child of part.has_parts) {
          parts.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
}
