/**
 * Measures what timing could reveal, as an attacker would: sequential requests over a real socket,
 * the cases interleaved in a random order each round so that they share the machine's load.
 * For each pair of cases that must look alike it reports the AUC (Mann–Whitney: the probability
 * that a request of the first case is slower than one of the second; 0.5 = inseparable), with
 * medians. Throttling is off: the point is the cost of the work itself.
 *
 * Run: npx tsx test/service/bench/auth-timing.ts   (ROUNDS=300 by default, BACKEND=pglite|postgres)
 */
import { join } from 'node:path';
import { BACKENDS } from '../helpers/backends.js';
import { addUser, PASSWORD, startTestServer, uniqueName } from '../helpers/harness.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 300);
const backend = BACKENDS.find((b) => b.name === (process.env['BACKEND'] ?? 'pglite'));
if (backend === undefined || backend.skip !== undefined) throw new Error(`backend unavailable: ${backend?.skip}`);
const database = await backend.open();
const server = await startTestServer(database.db, {
  outboxDir: join(database.dir, 'outbox'),
  throttle: { accountAddressFailures: 1e9, accountBackstopFailures: 1e9, addressFailures: 1e9, resetRequestsPerAccount: 1e9, resetCodeAttempts: 1e9 },
});
const user = await addUser(database.db, server.clock); // logs in and asks for codes
const pending = await addUser(database.db, server.clock); // always has a code pending
const idle = await addUser(database.db, server.clock); // never has one

/** A fresh code for `pending`, untimed; every few rounds, in case attempts per code are limited. */
async function renewPendingCode(): Promise<void> {
  await server.post('/forgot-password', { username: pending.username });
  await server.app.drain();
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  // Work a request left running after its reply (mails) would otherwise land on the next case.
  await server.app.drain();
  return ms;
}

// Every case repeats one name, as an attacker probing an account does: a fresh name per request
// would time the first use of a name (a new counter row) against later ones instead.
const ghost = uniqueName('ghost');
const confirm = (username: string) => () =>
  server.post('/forgot-password-confirm', { username, password: 'a fresh reset passphrase', confirmation_code: '12345' });
const cases: Record<string, () => Promise<unknown>> = {
  'login, existing account, wrong password': () => server.post('/login', { username: user.username, password: 'wrong password!' }),
  'login, unknown account': () => server.post('/login', { username: ghost, password: 'wrong password!' }),
  'forgot-password, existing account': () => server.post('/forgot-password', { username: user.username }),
  'forgot-password, unknown account': () => server.post('/forgot-password', { username: ghost }),
  'confirm, code pending': confirm(pending.username),
  'confirm, no code pending': confirm(idle.username),
  'confirm, unknown account': confirm(ghost),
};
const pairs: Array<[string, string]> = [
  ['login, existing account, wrong password', 'login, unknown account'],
  ['forgot-password, existing account', 'forgot-password, unknown account'],
  ['confirm, code pending', 'confirm, no code pending'],
  ['confirm, code pending', 'confirm, unknown account'],
  ['confirm, no code pending', 'confirm, unknown account'],
];

const samples = new Map<string, number[]>(Object.keys(cases).map((k) => [k, []]));
for (let round = 0; round < ROUNDS; round++) {
  if (round % 4 === 0) await renewPendingCode();
  const order = Object.entries(cases).sort(() => Math.random() - 0.5);
  for (const [name, fn] of order) samples.get(name)?.push(await time(fn));
}
const tokens = (await server.post('/login', { username: user.username, password: PASSWORD })).body;
const refresh: number[] = [];
for (let i = 0; i < 80; i++) refresh.push(await time(() => server.post('/token-refresh', { username: user.username, refresh_token: tokens['refresh_token'] })));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** P(X > Y) + P(X = Y) / 2 over all pairs, from ranks (Mann–Whitney U / (n·m)). */
function auc(xs: readonly number[], ys: readonly number[]): number {
  const all = [...xs.map((v) => ({ v, x: true })), ...ys.map((v) => ({ v, x: false }))].sort((a, b) => a.v - b.v);
  let rankSumX = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]?.v === all[i]?.v) j++;
    const rank = (i + 1 + j) / 2; // ties share their mean rank
    for (let k = i; k < j; k++) if (all[k]?.x === true) rankSumX += rank;
    i = j;
  }
  const u = rankSumX - (xs.length * (xs.length + 1)) / 2;
  return u / (xs.length * ys.length);
}

console.log(`backend ${backend.name}, ${ROUNDS} rounds, cases in random order each round; median ms:`);
for (const [name, xs] of samples) console.log(`  ${name.padEnd(45)} ${median(xs).toFixed(1)}`);
console.log(`  ${'token-refresh (80 sequential)'.padEnd(45)} ${median(refresh).toFixed(1)}`);
console.log('AUC (0.5: the two cases cannot be told apart by time):');
for (const [a, b] of pairs) console.log(`  ${`${a}  vs  ${b}`.padEnd(85)} ${auc(samples.get(a) ?? [], samples.get(b) ?? []).toFixed(3)}`);
await server.close();
await database.dispose();
