/**
 * An ARIA tablist (WAI-ARIA Authoring Practices, "Tabs with manual activation" minus the manual
 * part): click or Enter selects, arrow keys, Home and End move between tabs; only the selected
 * tab is in the tab order. `onSelect` runs when a panel is shown (for lazy rendering).
 */
export function tablist(list: HTMLElement, onSelect: (panelId: string) => void = () => {}): { select(tabId: string): void } {
  const tabs = [...list.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const select = (tab: HTMLButtonElement, focus: boolean): void => {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      const panel = document.getElementById(other.getAttribute('aria-controls') ?? '');
      if (panel !== null) panel.hidden = !selected;
    }
    if (focus) tab.focus();
    onSelect(tab.getAttribute('aria-controls') ?? '');
  };
  list.addEventListener('click', (event) => {
    const tab = (event.target as HTMLElement).closest<HTMLButtonElement>('[role="tab"]');
    if (tab !== null) select(tab, false);
  });
  list.addEventListener('keydown', (event) => {
    const current = tabs.indexOf(document.activeElement as HTMLButtonElement);
    if (current < 0) return;
    const moves: Record<string, number> = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: tabs.length - 1 };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(tabs[(next + tabs.length) % tabs.length]!, true);
  });
  return {
    select: (tabId) => {
      const tab = tabs.find((t) => t.id === tabId);
      if (tab !== undefined) select(tab, false);
    },
  };
}
