/**
 * The schema, as an ordered list of SQL migrations. Applied on start by migrate.ts, each once,
 * recorded in `schema_migrations`. Never edit a migration that has shipped: append a new one.
 *
 * Kept as TypeScript strings (not .sql files) so the build ships them with the code. Every
 * statement is separate because PGlite's parameterised query path runs one statement at a time.
 * Times are `timestamptz` written from the service's injectable clock, never `now()`, so that
 * tests can move time.
 */
export interface Migration {
  id: string;
  statements: readonly string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    id: '0001_auth',
    statements: [
      `CREATE TABLE accounts (
        id uuid PRIMARY KEY,
        username text NOT NULL UNIQUE,
        email text NOT NULL,
        password_hash text NOT NULL,
        must_change_password boolean NOT NULL DEFAULT false,
        disabled_at timestamptz,
        created_at timestamptz NOT NULL,
        password_changed_at timestamptz NOT NULL
      )`,
      // Opaque refresh tokens, stored only as SHA-256 hashes (they carry 256 random bits, so a
      // slow hash adds nothing). `uses` is incremented atomically by each refresh.
      `CREATE TABLE refresh_tokens (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        uses integer NOT NULL DEFAULT 0,
        revoked_at timestamptz
      )`,
      `CREATE INDEX refresh_tokens_account_idx ON refresh_tokens (account_id)`,
      // At most one live reset code per account: a new request replaces the previous code.
      `CREATE TABLE password_reset_codes (
        account_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        code_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        used_at timestamptz
      )`,
      // NEW_PASSWORD_REQUIRED challenge sessions: single use, short-lived.
      `CREATE TABLE password_challenges (
        session_hash text PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`,
      // JWT signing keys. A retired key stays published in the JWKS until every token it signed
      // has expired.
      `CREATE TABLE signing_keys (
        kid text PRIMARY KEY,
        alg text NOT NULL,
        public_jwk jsonb NOT NULL,
        private_jwk jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        retired_at timestamptz
      )`,
      // Failure counters for throttling, shared by every process on the database.
      `CREATE TABLE auth_throttle (
        key text PRIMARY KEY,
        failures integer NOT NULL,
        window_start timestamptz NOT NULL
      )`,
    ],
  },
  {
    id: '0002_content',
    statements: [
      // One row per article: the newest revision we have of (project, title), with its source.
      // `title` is the normalised title with spaces (content/title.ts). `meta` is the envelope's
      // metadata without its body, so the article can be parsed again exactly as first delivered.
      `CREATE TABLE articles (
        project text NOT NULL,
        title text NOT NULL,
        revision bigint NOT NULL,
        page_id bigint,
        language text,
        html text,
        wikitext text,
        meta jsonb NOT NULL,
        origin text NOT NULL,
        stored_at timestamptz NOT NULL,
        PRIMARY KEY (project, title)
      )`,
      `CREATE INDEX articles_title_idx ON articles (title)`,
      // The parsed Article as JSON text (served as is), per revision and engine version: an engine
      // upgrade leaves old rows unused and articles are parsed again on first request.
      `CREATE TABLE parsed_articles (
        project text NOT NULL,
        title text NOT NULL,
        revision bigint NOT NULL,
        engine_version text NOT NULL,
        article text NOT NULL,
        parsed_at timestamptz NOT NULL,
        PRIMARY KEY (project, title, revision, engine_version)
      )`,
    ],
  },
  {
    id: '0003_throttle_windows',
    statements: [
      // Each counter carries the end of its own window, so counters of different window lengths
      // (15-minute failure counters, one-hour reset-code counters) share the table and the purge.
      // `used` counts slots taken: failures, plus attempts still in flight (auth/limiter.ts).
      `ALTER TABLE auth_throttle RENAME COLUMN failures TO used`,
      `ALTER TABLE auth_throttle ADD COLUMN window_end timestamptz`,
      // Every counter before this migration had the default 15-minute window.
      `UPDATE auth_throttle SET window_end = window_start + interval '15 minutes'`,
      `ALTER TABLE auth_throttle ALTER COLUMN window_end SET NOT NULL`,
      `ALTER TABLE auth_throttle DROP COLUMN window_start`,
    ],
  },
  {
    id: '0004_articles_in_title_byte_order',
    statements: [
      // Structured snapshots read a project's articles in byte order of their titles (COLLATE "C":
      // the same order whatever the server's locale), a page at a time after the last title
      // written; without this index every page would sort the whole project.
      `CREATE INDEX articles_project_title_c_idx ON articles (project, title COLLATE "C")`,
    ],
  },
  {
    id: '0005_sealed_signing_keys',
    statements: [
      // Private signing keys are stored sealed (AES-256-GCM under the deployment's key secret,
      // auth/key-secret.ts), never in the clear: reading the database must not be enough to mint
      // tokens. Keys stored in the clear before are sealed, and retired, at the next start
      // (KeyStore.sealClearKeys), which needs the secret and so cannot happen here.
      `ALTER TABLE signing_keys ADD COLUMN private_key_sealed text`,
      `ALTER TABLE signing_keys ALTER COLUMN private_jwk DROP NOT NULL`,
      // Exactly one of the two: a clear key waiting to be sealed, or a sealed one.
      `ALTER TABLE signing_keys ADD CONSTRAINT signing_keys_private_once CHECK ((private_jwk IS NULL) <> (private_key_sealed IS NULL))`,
    ],
  },
  {
    id: '0006_familiar_addresses',
    statements: [
      // The client addresses each account signed in from lately: an address here is not held by
      // the per-account backstop of the failure throttle (auth/service.ts), so an attacker with
      // many addresses cannot keep the owner out from where they usually sign in. Purged once
      // older than the familiarity window.
      `CREATE TABLE account_addresses (
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        address text NOT NULL,
        signed_in_at timestamptz NOT NULL,
        PRIMARY KEY (account_id, address)
      )`,
    ],
  },
  {
    id: '0007_article_freshness',
    statements: [
      // When the wiki last confirmed the stored revision as its latest (content/freshness.ts);
      // NULL: not since it was stored, so `stored_at` is that time. An article is revalidated
      // once this is older than the service's --max-age.
      `ALTER TABLE articles ADD COLUMN checked_at timestamptz`,
      // A revalidation lease: until then one process is revalidating the article (or, after a
      // failure, nobody tries again). The one-per-title guarantee across all processes.
      `ALTER TABLE articles ADD COLUMN revalidating_until timestamptz`,
    ],
  },
  {
    id: '0008_snapshot_build_lease',
    statements: [
      // One snapshot build at a time across every process of a deployment (serve's schedule, a
      // `wikistruct snapshot build`): the builder holds this one row's lease and renews it while
      // it builds; a lease whose holder died expires and is taken over (snapshots/build-lease.ts).
      `CREATE TABLE snapshot_build_lease (
        id smallint PRIMARY KEY CHECK (id = 1),
        holder text NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
    ],
  },
  {
    id: '0009_article_page_links',
    statements: [
      // The categories and templates read from a stored article's Parsoid HTML (engine
      // page-links.ts) for /v2/articles, when its envelope did not list them: JSON text with the
      // engine version that read them, written on the first request that needs them (on a worker
      // thread) and reused until the revision or the engine changes. NULL: not read yet; a new
      // revision clears it (ArticleStore.upsert).
      `ALTER TABLE articles ADD COLUMN page_links text`,
    ],
  },
  {
    id: '0010_follow_positions',
    statements: [
      // `serve --follow`: the id of the last event received from each followed stream
      // (content/follow-position.ts), so that a restarted server resumes the stream from it.
      `CREATE TABLE follow_positions (
        stream text PRIMARY KEY,
        last_event_id text NOT NULL,
        saved_at timestamptz NOT NULL
      )`,
    ],
  },
];
