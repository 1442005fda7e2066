/** Typed lookups of the page's fixed elements: a missing one is a bug in index.html, said at once. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`index.html has no #${id}`);
  return el as T;
}

export function show(el: HTMLElement, visible: boolean): void {
  el.hidden = !visible;
}
