/**
 * The two ways to open an article: a project and a title (POST /v2/structured-contents), or
 * pasted or dropped text (POST /v2/parse, nothing stored). Both end in `open(request)`.
 */
import { detectKind, type InputKind } from '../source/input.js';
import { byId } from './dom.js';
import { tablist } from './tabs.js';

export type OpenRequest =
  | { kind: 'title'; project: string; title: string }
  | { kind: 'html'; text: string; label: string }
  | { kind: 'wikitext'; text: string; name: string; project: string };

export function openForms(open: (request: OpenRequest) => void): void {
  tablist(byId('open').querySelector<HTMLElement>('.tabs')!);
  const titleForm = byId<HTMLFormElement>('by-title');
  titleForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const project = byId<HTMLInputElement>('project').value.trim();
    const title = byId<HTMLInputElement>('title').value.trim();
    if (project !== '' && title !== '') open({ kind: 'title', project, title });
  });

  const pasted = byId<HTMLTextAreaElement>('pasted');
  const kindSelect = byId<HTMLSelectElement>('kind');
  const pasteForm = byId<HTMLFormElement>('by-paste');
  let fileName: string | undefined;
  const kind = (): InputKind => (kindSelect.value === 'html' || kindSelect.value === 'wikitext' ? kindSelect.value : detectKind(pasted.value, fileName));
  // The title and project fields matter for wikitext only: shown when the input reads as wikitext.
  const update = (): void => void (pasteForm.dataset['kind'] = pasted.value.trim() === '' && kindSelect.value === 'auto' ? 'none' : kind());
  pasted.addEventListener('input', () => {
    fileName = undefined;
    update();
  });
  kindSelect.addEventListener('change', update);
  update();

  const load = async (file: File): Promise<void> => {
    pasted.value = await file.text();
    fileName = file.name;
    const name = byId<HTMLInputElement>('wt-name');
    if (name.value === '') name.value = file.name.replace(/\.[^.]+$/, '').replace(/_/g, ' ');
    update();
  };
  byId<HTMLInputElement>('file').addEventListener('change', (event) => {
    const file = (event.target as HTMLInputElement).files?.[0];
    if (file !== undefined) void load(file);
  });
  const drop = byId('drop');
  drop.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.classList.add('dragging');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('dragging'));
  drop.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('dragging');
    const file = event.dataTransfer?.files[0];
    if (file !== undefined) void load(file);
  });

  pasteForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = pasted.value;
    if (text.trim() === '') return pasted.focus();
    if (kind() === 'html') return open({ kind: 'html', text, label: fileName?.replace(/\.[^.]+$/, '') ?? 'pasted' });
    const name = byId<HTMLInputElement>('wt-name');
    if (name.value.trim() === '') {
      name.setCustomValidity('Wikitext needs a page title');
      name.reportValidity();
      name.addEventListener('input', () => name.setCustomValidity(''), { once: true });
      return;
    }
    open({ kind: 'wikitext', text, name: name.value.trim(), project: byId<HTMLInputElement>('wt-project').value.trim() });
  });
}
