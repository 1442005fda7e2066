/**
 * The explorer page: sign in, open an article (by title, or pasted / dropped), look at it.
 * Wiring only; the parts are in api.ts (the service), render/ (Article → HTML strings, pure) and
 * views/ (the DOM).
 */
import { ApiClient, ApiError } from './api.js';
import type { Article } from '../schema/article.js';
import { plural } from './render/outline.js';
import { ArticleView } from './views/article-view.js';
import { byId, show } from './views/dom.js';
import { openForms, type OpenRequest } from './views/open-forms.js';

const status = byId('status');
const alertBox = byId('alert');

function say(text: string): void {
  status.textContent = text;
}

function fail(error: unknown): void {
  const message = error instanceof ApiError ? `${error.message} (${error.status})` : error instanceof Error ? error.message : String(error);
  alertBox.textContent = message;
  show(alertBox, true);
  say('');
}

function clearAlert(): void {
  show(alertBox, false);
  alertBox.textContent = '';
}

const client = new ApiClient({
  storage: sessionStorage,
  onSignedOut: (reason) => {
    signedOut();
    fail(new Error(reason));
  },
});
const view = new ArticleView({ status: say, fail });

function signedIn(): void {
  const session = client.session;
  if (session === undefined) return signedOut();
  byId('account-name').textContent = session.username;
  show(byId('account'), true);
  show(byId('sign-in'), false);
  show(byId('open'), true);
}

function signedOut(): void {
  show(byId('account'), false);
  show(byId('open'), false);
  view.hide();
  show(byId('sign-in'), true);
  byId<HTMLInputElement>('password').value = '';
}

/** The NEW_PASSWORD_REQUIRED challenge, while one is open. */
let challenge: { username: string; session: string } | undefined;

byId<HTMLFormElement>('sign-in-form').addEventListener('submit', (event) => {
  event.preventDefault();
  clearAlert();
  const username = byId<HTMLInputElement>('username').value;
  const password = byId<HTMLInputElement>('password').value;
  const newPassword = byId<HTMLInputElement>('new-password');
  say('Signing in…');
  const done = challenge !== undefined ? client.setNewPassword(challenge.username, challenge.session, newPassword.value).then(() => ({ kind: 'signed-in' as const })) : client.login(username, password);
  done.then(
    (result) => {
      if (result.kind === 'new-password-required') {
        challenge = { username, session: result.session };
        show(byId('new-password-row'), true);
        newPassword.required = true;
        newPassword.focus();
        say('This account must choose a new password before its first use.');
        return;
      }
      challenge = undefined;
      show(byId('new-password-row'), false);
      newPassword.required = false;
      newPassword.value = '';
      say(`Signed in as ${client.session?.username ?? username}.`);
      signedIn();
      byId('title').focus();
    },
    fail,
  );
});

byId('sign-out').addEventListener('click', () => {
  void client.signOut().then(() => {
    signedOut();
    clearAlert();
    say('Signed out.');
    byId('username').focus();
  });
});

/** Only the newest request is shown: a slow parse must not replace the article asked for after it. */
let latest = 0;

function openArticle(request: OpenRequest): void {
  clearAlert();
  const ticket = ++latest;
  const shown = (article: Article, label: string, source: () => Promise<{ format: 'html' | 'wikitext'; text: string; article: Article }>): void => {
    if (ticket !== latest) return;
    view.show({ article, label, source });
    say(`Showing ${article.name ?? label}: ${plural(article.references.length, 'reference')}, ${plural(article.tables.length, 'table')}.`);
  };
  if (request.kind === 'title') {
    say(`Opening ${request.title} (${request.project})…`);
    client.structuredContents(request.title, request.project).then(
      (article) =>
        shown(article, request.title, () =>
          client.source(request.title, request.project).then((reply) => ({ format: reply.format, text: reply.source, article: reply.article })),
        ),
      fail,
    );
    return;
  }
  say('Parsing…');
  if (request.kind === 'html') {
    client.parse({ html: request.text, source_positions: true }).then((article) => shown(article, request.label, async () => ({ format: 'html', text: request.text, article })), fail);
    return;
  }
  client.parse({ wikitext: request.text, name: request.name, project: request.project }).then((article) => shown(article, request.name, async () => ({ format: 'wikitext', text: request.text, article })), fail);
}

openForms(openArticle);
if (client.session !== undefined) signedIn();
else signedOut();
