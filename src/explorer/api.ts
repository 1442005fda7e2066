/**
 * The explorer's client of the service: signs in with /v1/login, keeps the tokens in session
 * storage only (gone when the tab closes; never in localStorage or a cookie), refreshes the
 * access token with /v1/token-refresh shortly before it expires and once more on a 401, and
 * revokes the refresh token on sign-out. Every failure is an ApiError carrying the service's
 * `{message, status}`. Clock, fetch and storage are injected, so it runs in node tests too.
 */
// Types only, from the shapes the service validates and documents with: the bundle takes nothing of the server.
import type { Article } from '../schema/article.js';
import type { ParseBody } from '../schema/parse-request.js';
import type { SourceReply } from '../schema/source-reply.js';
import type * as V1 from '../service/auth/schemas.js';

export type { ParseBody };

export interface Session {
  username: string;
  accessToken: string;
  refreshToken: string;
  /** When the access token expires, ms since the epoch (by the client's clock). */
  expiresAt: number;
  /** Its lifetime when issued, ms: the refresh margin is a share of it. */
  lifetimeMs: number;
}

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type LoginResult = { kind: 'signed-in' } | { kind: 'new-password-required'; session: string };


export interface ApiClientOptions {
  /** Origin of the service; '' (the default) is the page's own. */
  base?: string;
  fetch?: typeof fetch;
  now?: () => number;
  storage?: StorageLike;
  /** Told when the session ends without the person asking (refresh refused). */
  onSignedOut?: (reason: string) => void;
}

const STORAGE_KEY = 'wikistruct.explorer.session';
/** Refresh when less than this share of the token's lifetime is left (at most a minute before). */
const REFRESH_SHARE = 0.1;
const MAX_MARGIN_MS = 60_000;

export class ApiClient {
  readonly #base: string;
  readonly #fetch: typeof fetch;
  readonly #now: () => number;
  readonly #storage: StorageLike | undefined;
  readonly #onSignedOut: (reason: string) => void;
  #session: Session | undefined;
  /** One refresh at a time: parallel requests that all find the token stale share it. */
  #refreshing: Promise<void> | undefined;

  constructor(options: ApiClientOptions = {}) {
    this.#base = options.base ?? '';
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#now = options.now ?? Date.now;
    this.#storage = options.storage;
    this.#onSignedOut = options.onSignedOut ?? (() => {});
    this.#session = this.#restore();
  }

  get session(): Readonly<Session> | undefined {
    return this.#session;
  }

  async login(username: string, password: string): Promise<LoginResult> {
    const reply = await this.#send<V1.LoginRequest, V1.LoginReply>('/v1/login', { username, password });
    if ('challenge_name' in reply) return { kind: 'new-password-required', session: String(reply.session) };
    this.#start(username, reply);
    return { kind: 'signed-in' };
  }

  /** Answers the NEW_PASSWORD_REQUIRED challenge of a first login with a temporary password. */
  async setNewPassword(username: string, session: string, newPassword: string): Promise<void> {
    const reply = await this.#send<V1.NewPasswordRequiredRequest, V1.NewPasswordReply>('/v1/new-password-required', { username, session, new_password: newPassword });
    this.#start(username, reply);
  }

  /** Revokes the refresh token (best effort: signing out locally never fails) and forgets the session. */
  async signOut(): Promise<void> {
    const session = this.#session;
    this.#end();
    if (session === undefined) return;
    try {
      await this.#send<V1.RevokeRequest, V1.Message>('/v1/token-revoke', { refresh_token: session.refreshToken });
    } catch {
      // Already revoked or expired, or the service is down: the tokens are forgotten either way.
    }
  }

  /** A request with the access token, refreshed first when about to expire and once more on a 401. */
  async authorized(path: string, init: RequestInit = {}): Promise<Response> {
    if (this.#session === undefined) throw new ApiError(401, 'not signed in');
    if (this.#stale(this.#session)) await this.refresh();
    let response = await this.#fetch(this.#base + path, this.#withToken(init));
    if (response.status === 401) {
      // Revoked elsewhere, the clocks disagree, or the signing key rotated: one refresh decides.
      await this.refresh();
      response = await this.#fetch(this.#base + path, this.#withToken(init));
    }
    return response;
  }

  refresh(): Promise<void> {
    this.#refreshing ??= this.#doRefresh().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async structuredContents(title: string, project: string): Promise<Article> {
    const body = JSON.stringify({ filters: [{ field: 'is_part_of.identifier', value: project }], limit: 1 });
    const articles = await this.#json<Article[]>(`/v2/structured-contents/${titleSegment(title)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const article = articles[0];
    if (article === undefined) throw new ApiError(404, `no article ${JSON.stringify(title)} in ${project}`);
    return article;
  }

  parse(body: ParseBody): Promise<Article> {
    return this.#json<Article>('/v2/parse', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  source(title: string, project: string): Promise<SourceReply> {
    return this.#json<SourceReply>(`/v2/source/${titleSegment(title)}?project=${encodeURIComponent(project)}`);
  }

  async #json<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await this.authorized(path, init);
    if (!response.ok) throw await errorOf(response);
    return (await response.json()) as T;
  }

  async #doRefresh(): Promise<void> {
    const session = this.#session;
    if (session === undefined) throw new ApiError(401, 'not signed in');
    let reply: V1.RefreshReply;
    try {
      reply = await this.#send<V1.RefreshRequest, V1.RefreshReply>('/v1/token-refresh', { username: session.username, refresh_token: session.refreshToken });
    } catch (error) {
      // Refused (revoked, expired, used up, account disabled): the session is over. A network
      // failure or a 5xx is not the session's fault and keeps it for the next attempt.
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        this.#end();
        this.#onSignedOut(`Your session ended: ${error.message}. Sign in again.`);
      }
      throw error;
    }
    const accessToken = String(reply.access_token);
    const lifetimeMs = Number(reply.expires_in) * 1000;
    this.#save({ ...session, accessToken, lifetimeMs, expiresAt: this.#now() + lifetimeMs });
  }

  /** POST a JSON body without a token (the /v1 endpoints); the reply's JSON, or an ApiError. */
  async #send<Req, Reply>(path: string, body: Req): Promise<Reply> {
    const response = await this.#fetch(this.#base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw await errorOf(response);
    return (await response.json()) as Reply;
  }

  #start(username: string, reply: V1.Tokens): void {
    const lifetimeMs = Number(reply.expires_in) * 1000;
    this.#save({
      username: username.trim().toLowerCase(),
      accessToken: String(reply.access_token),
      refreshToken: String(reply.refresh_token),
      lifetimeMs,
      expiresAt: this.#now() + lifetimeMs,
    });
  }

  #stale(session: Session): boolean {
    return session.expiresAt - this.#now() < Math.min(MAX_MARGIN_MS, session.lifetimeMs * REFRESH_SHARE);
  }

  #withToken(init: RequestInit): RequestInit {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${this.#session?.accessToken ?? ''}`);
    return { ...init, headers };
  }

  #save(session: Session): void {
    this.#session = session;
    this.#storage?.setItem(STORAGE_KEY, JSON.stringify(session));
  }

  #end(): void {
    this.#session = undefined;
    this.#storage?.removeItem(STORAGE_KEY);
  }

  #restore(): Session | undefined {
    const text = this.#storage?.getItem(STORAGE_KEY);
    if (text === null || text === undefined) return undefined;
    try {
      const value = JSON.parse(text) as Partial<Session>;
      if (typeof value.accessToken === 'string' && typeof value.refreshToken === 'string' && typeof value.username === 'string' && typeof value.expiresAt === 'number' && typeof value.lifetimeMs === 'number') {
        return value as Session;
      }
    } catch {
      // unreadable: as if absent
    }
    this.#storage?.removeItem(STORAGE_KEY);
    return undefined;
  }
}

/** The title as one path segment, as the service's title rules read it ("_" or " " alike). */
export function titleSegment(title: string): string {
  return encodeURIComponent(title.trim().replace(/ /g, '_'));
}

/** The service's `{message, status}`; something sensible when a proxy sent another body. */
export async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string') return new ApiError(response.status, body.message);
  } catch {
    // not JSON
  }
  return new ApiError(response.status, `${response.status} ${response.statusText || 'error'}`.trim());
}
