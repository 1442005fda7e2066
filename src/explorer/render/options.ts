/** How the renderers shape their output for the view that shows it. */
export interface RenderOptions {
  /**
   * Ids and in-page links (citation → reference, table part → table). On in the main view; off
   * in the side-by-side pane, which repeats the outline and must not repeat its ids.
   */
  anchors: boolean;
  /** Mark each Part that has a source hint with `data-src` and make it focusable (the side-by-side pane). */
  sources: boolean;
}

export const MAIN_VIEW: RenderOptions = { anchors: true, sources: false };
export const SOURCE_PANE: RenderOptions = { anchors: false, sources: true };
