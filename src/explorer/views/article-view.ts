/**
 * The Article on screen: header (name, description, abstract, identity), then three tabs —
 * Structure (outline, infoboxes, tables, references), JSON (viewer, copy, download) and Side by
 * side (the source page next to the parts). Everything is rendered as strings by ../render and
 * assigned once; JSON and the source are made only when their tab is first opened.
 */
import type { Article } from '../../schema/article.js';
import { renderHeader } from '../render/header.js';
import { renderInfoboxes } from '../render/infobox.js';
import { forArticle, MAIN_VIEW } from '../render/options.js';
import { renderOutline } from '../render/outline.js';
import { renderReferences } from '../render/references.js';
import { renderTableGrid, renderTableList } from '../render/tables.js';
import { byId, pageWikiHosts, show } from './dom.js';
import { showSource, type SourceData } from './source-view.js';
import { tablist } from './tabs.js';

export interface Shown {
  article: Article;
  /** A file name for the download, without extension. */
  label: string;
  /** The source for the side-by-side tab: the pasted text, or the stored source by title. */
  source: () => Promise<SourceData>;
}

export interface ViewHooks {
  status(text: string): void;
  fail(error: unknown): void;
}

export class ArticleView {
  readonly #root = byId('view');
  readonly #outline = byId('outline');
  readonly #structure = byId('view-structure');
  readonly #json = byId('json');
  readonly #tabs: { select(tabId: string): void };
  #shown: Shown | undefined;
  #jsonText: string | undefined;
  #sourceLoaded = false;
  #current: Element | undefined;

  constructor(private readonly hooks: ViewHooks) {
    this.#tabs = tablist(this.#root.querySelector<HTMLElement>('.tabs')!, (panel) => this.#opened(panel));
    byId('expand-all').addEventListener('click', () => this.#setAllOpen(true));
    byId('collapse-all').addEventListener('click', () => this.#setAllOpen(false));
    byId('copy-json').addEventListener('click', () => void this.#copy());
    byId('download-json').addEventListener('click', () => this.#download());
    // `toggle` does not bubble: listen while it travels down (capture).
    this.#structure.addEventListener('toggle', (event) => this.#toggled(event.target as HTMLElement), true);
    this.#structure.addEventListener('click', (event) => this.#click(event));
    // A thumbnail whose host is unreachable (in either tab's outline): the caption stands alone.
    this.#root.addEventListener('error', (event) => {
      const img = event.target as HTMLElement;
      if (img.tagName === 'IMG') img.closest('figure')?.classList.add('unreachable');
    }, true);
  }

  show(shown: Shown): void {
    performance.mark('explorer-render-start');
    const { article } = shown;
    this.#shown = shown;
    this.#jsonText = undefined;
    this.#sourceLoaded = false;
    this.#json.textContent = '';
    byId('article-header').innerHTML = renderHeader(article);
    this.#outline.innerHTML = renderOutline(article.sections, forArticle(MAIN_VIEW, article, pageWikiHosts()));
    byId('infobox-list').innerHTML = renderInfoboxes(article.infoboxes, MAIN_VIEW);
    byId('table-list').innerHTML = renderTableList(article.tables, MAIN_VIEW);
    byId('reference-list').innerHTML = renderReferences(article.references, MAIN_VIEW);
    show(this.#root, true);
    this.#tabs.select('view-tab-structure');
    performance.measure('explorer-render', 'explorer-render-start');
    byId('article-header').querySelector<HTMLElement>('.article-name')?.focus();
  }

  hide(): void {
    show(this.#root, false);
    this.#shown = undefined;
  }

  #opened(panel: string): void {
    const shown = this.#shown;
    if (shown === undefined) return;
    if (panel === 'view-json' && this.#jsonText === undefined) {
      this.#jsonText = JSON.stringify(shown.article, null, 2);
      this.#json.textContent = this.#jsonText;
      byId('json-size').textContent = `${formatBytes(new TextEncoder().encode(this.#jsonText).length)} of JSON`;
    }
    if (panel === 'view-source' && !this.#sourceLoaded) {
      this.#sourceLoaded = true;
      this.hooks.status('Loading the source…');
      shown.source().then(
        (data) => {
          if (this.#shown !== shown) return;
          showSource(data);
          this.hooks.status('Source loaded. Point at or focus a part to see where it came from.');
        },
        (error: unknown) => {
          this.#sourceLoaded = false;
          this.hooks.fail(error);
        },
      );
    }
  }

  #setAllOpen(open: boolean): void {
    for (const details of this.#outline.querySelectorAll('details')) details.open = open;
  }

  /** A table's grid is rendered the first time it is opened. */
  #toggled(target: HTMLElement): void {
    if (!(target instanceof HTMLDetailsElement) || !target.open || target.dataset['table'] === undefined) return;
    const holder = target.querySelector<HTMLElement>('.grid-scroll');
    const table = this.#shown?.article.tables[Number(target.dataset['table'])];
    if (holder !== null && holder.childElementCount === 0 && table !== undefined) holder.innerHTML = renderTableGrid(table, MAIN_VIEW);
  }

  /**
   * In-page links (citation → reference, table part → table): move focus there too, so a
   * keyboard or screen-reader user lands where the eye does, and open a table that is closed.
   */
  #click(event: MouseEvent): void {
    const link = (event.target as HTMLElement).closest<HTMLAnchorElement>('a[href^="#"]');
    if (link === null) return;
    const target = document.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (target === null) return;
    event.preventDefault();
    if (target instanceof HTMLDetailsElement) target.open = true;
    this.#current?.classList.remove('current');
    target.classList.add('current');
    this.#current = target;
    const focusable = target instanceof HTMLDetailsElement ? target.querySelector('summary') : target;
    focusable?.focus({ preventScroll: true });
    target.scrollIntoView({ block: 'center' });
  }

  async #copy(): Promise<void> {
    const text = this.#jsonText;
    if (text === undefined) return;
    try {
      await navigator.clipboard.writeText(text);
      this.hooks.status(`Copied ${formatBytes(text.length)} of JSON.`);
    } catch {
      // No clipboard API (a page on plain http off localhost): select it for Ctrl+C instead.
      const range = document.createRange();
      range.selectNodeContents(this.#json);
      const selection = getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      this.hooks.status('The JSON is selected: press Ctrl+C (⌘C) to copy it.');
    }
  }

  #download(): void {
    const shown = this.#shown;
    if (shown === undefined) return;
    const text = this.#jsonText ?? JSON.stringify(shown.article, null, 2);
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${shown.label.replace(/[^\p{L}\p{N}_.-]+/gu, '_') || 'article'}.json`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
