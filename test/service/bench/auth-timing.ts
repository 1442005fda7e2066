/**
 * Measures what timing could reveal: login and forgot-password latency for an existing account
 * versus an unknown one (the baseline, in the same run), plus refresh latency. Real socket,
 * embedded database. Run: npx tsx test/service/bench/auth-timing.ts
 */
import { join } from 'node:path';
import { BACKENDS } from '../helpers/backends.js';
import { addUser, PASSWORD, startTestServer, uniqueName } from '../helpers/harness.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 40);
const backend = BACKENDS.find((b) => b.name === (process.env['BACKEND'] ?? 'pglite'));
if (backend === undefined || backend.skip !== undefined) throw new Error(`backend unavailable: ${backend?.skip}`);
const database = await backend.open();
// Throttling off for the measurement: the point is the cost of the credential check itself.
const server = await startTestServer(database.db, {
  outboxDir: join(database.dir, 'outbox'),
  throttle: { accountFailures: 1e9, addressFailures: 1e9, resetRequestsPerAccount: 1e9 },
});
const user = await addUser(database.db, server.clock);

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const cases: Record<string, () => Promise<unknown>> = {
  'login, existing account, right password': () => server.post('/login', { username: user.username, password: PASSWORD }),
  'login, existing account, wrong password': () => server.post('/login', { username: user.username, password: 'wrong password!' }),
  'login, unknown account (baseline)': () => server.post('/login', { username: uniqueName('ghost'), password: 'wrong password!' }),
  'forgot-password, existing account': () => server.post('/forgot-password', { username: user.username }),
  'forgot-password, unknown account (baseline)': () => server.post('/forgot-password', { username: uniqueName('ghost') }),
};
const samples = new Map<string, number[]>(Object.keys(cases).map((k) => [k, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, fn] of Object.entries(cases)) samples.get(name)?.push(await time(fn)); // interleaved: same load for all
}
const tokens = (await server.post('/login', { username: user.username, password: PASSWORD })).body;
const refresh: number[] = [];
for (let i = 0; i < 80; i++) refresh.push(await time(() => server.post('/token-refresh', { username: user.username, refresh_token: tokens['refresh_token'] })));

console.log(`backend ${backend.name}, ${ROUNDS} interleaved rounds, median ms:`);
for (const [name, xs] of samples) console.log(`  ${name.padEnd(45)} ${median(xs).toFixed(1)}`);
console.log(`  ${'token-refresh (80 sequential)'.padEnd(45)} ${median(refresh).toFixed(1)}`);
await server.close();
await database.dispose();
