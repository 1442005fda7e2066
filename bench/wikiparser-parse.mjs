#!/usr/bin/env node
/**
 * Times wikiparser-node's `Parser.parse` alone (view-only, tree.ts's configuration per page) on
 * the inputs written by bench/wikiparser-inputs.ts, under plain node, for the patch's hunks
 * (patches/README.md):
 *
 *   node bench/wikiparser-parse.mjs INPUTS.json --lib DIR [--lib DIR2] [--wtf] [--rounds 10] [--warmup 2]
 *        [--set envelopes|wikitext|both] [--compare] [--profile-rounds N]
 *
 * Each `--lib` is a copy of the package (a folder holding its package.json), e.g. node_modules/
 * wikiparser-node and a copy without a hunk; with two, rounds alternate which goes first and the
 * report gives the median ratio of the second to the first, per set (CPU time of the process).
 * `--wtf` adds wtf_wikipedia's `wtf(text).json()` as a baseline in the same rounds.
 * `--interleave` alternates the runners text by text instead of round by round (each text parsed by
 * every runner in turn, the order rotating), which averages out a shared machine's swings in load
 * far better; the ratio is then of the sums of CPU time over all rounds.
 * In one process every runner also pays for the garbage the runner before it left (a scavenge or a
 * marking started by its allocations), and with `--interleave` the order is a fixed rotation, so
 * each runner always follows the same one: the first follows wtf_wikipedia, whose garbage is the
 * least, and a copy that leaves less garbage speeds up the next runner rather than itself (a
 * second copy of the first library, run as a control, came out 6–11 % slower than the first).
 * `--processes N` avoids both: N rounds of processes, each timing one runner alone (`--warmup`
 * then `--rounds` rounds of every text, all its garbage its own), the order of the runners
 * rotating from round to round; the ratio is of the sums of CPU time. With `--parallel` the
 * runners of a round run at the same time instead (one process each: with two runners, one per
 * core of a two-core machine), so that both see the same load from other work, and each round's
 * ratio is also given (median and range).
 * `--compare` parses every text with each copy and checks that the trees' `json()` are equal.
 * `--profile-rounds N` only parses N rounds with the first copy (for `node --cpu-prof`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    lib: { type: 'string', multiple: true, default: [join(ROOT, 'node_modules', 'wikiparser-node')] },
    wtf: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    set: { type: 'string', default: 'both' },
    compare: { type: 'boolean', default: false },
    'profile-rounds': { type: 'string' },
    interleave: { type: 'boolean', default: false },
    processes: { type: 'string' },
    parallel: { type: 'boolean', default: false },
    'only-wtf': { type: 'boolean', default: false },
    'time-only': { type: 'boolean', default: false },
  },
});
const input = JSON.parse(readFileSync(positionals[0] ?? '/tmp/wikiparser-inputs.json', 'utf8'));
// The copies' own dependencies resolve from this repository's node_modules.
process.env.NODE_PATH = join(ROOT, 'node_modules');
createRequire(import.meta.url)('node:module').Module._initPaths();

if (values.processes !== undefined) {
  // One child process per runner and round (see the header); the children print their CPU time.
  const { execFileSync } = await import('node:child_process');
  const self = fileURLToPath(import.meta.url);
  const variants = values.lib.map((dir) => ({ name: `lib ${dir}`, args: ['--lib', dir] }));
  if (values.wtf) variants.push({ name: 'wtf(text).json()', args: ['--only-wtf'] });
  const totals = variants.map(() => ({}));
  const perRound = variants.map(() => ({}));
  const n = Number(values.processes);
  const childArgs = (j) => [self, positionals[0], ...variants[j].args, '--time-only', '--set', values.set, '--rounds', values.rounds, '--warmup', values.warmup];
  const add = (j, out) => {
    for (const [set, ms] of Object.entries(JSON.parse(out))) {
      totals[j][set] = (totals[j][set] ?? 0) + ms;
      (perRound[j][set] ??= []).push(ms);
    }
  };
  for (let r = 0; r < n; r++) {
    if (values.parallel) {
      // `--parallel`: the runners of a round all at once, one process each, so that they share
      // the machine's load of that moment (with two runners on two cores: one core each).
      const { execFile } = await import('node:child_process');
      const outs = await Promise.all(variants.map((_, j) => new Promise((res, rej) => {
        execFile(process.execPath, childArgs(j), { encoding: 'utf8' }, (e, out) => (e ? rej(e) : res(out)));
      })));
      outs.forEach((out, j) => add(j, out));
      continue;
    }
    for (let k = 0; k < variants.length; k++) {
      const j = (k + r) % variants.length;
      add(j, execFileSync(process.execPath, childArgs(j), { encoding: 'utf8' }));
    }
  }
  for (const set of Object.keys(totals[0])) {
    console.log(`== ${set}: ${n} processes per runner × ${values.rounds} rounds (CPU ms per round; ratio of sums to the first)`);
    for (const [j, v] of variants.entries()) {
      const ratios = perRound[j][set].map((ms, r) => ms / perRound[0][set][r]).sort((a, b) => a - b);
      console.log(`  ${(totals[j][set] / n / Number(values.rounds)).toFixed(0).padStart(6)} ms  ×${(totals[j][set] / totals[0][set]).toFixed(3)} (per round of processes: median ×${ratios[ratios.length >> 1].toFixed(3)}, ${ratios[0].toFixed(2)}–${ratios[ratios.length - 1].toFixed(2)})  ${v.name}`);
    }
  }
  process.exit(0);
}

const libs = values['only-wtf'] ? [] : values.lib.map((dir) => {
  const Parser = createRequire(join(resolve(dir), 'package.json'))('./dist/index.js');
  Parser.warning = false;
  Parser.viewOnly = true;
  // Each copy caches its regexes in the configuration objects: one copy of them per library.
  const configs = input.configs.map((c) => structuredClone(c));
  return { name: dir, parse: (call) => Parser.parse(call.text, false, undefined, configs[call.config]) };
});
const sets = Object.entries(input.sets).filter(([name]) => values.set === 'both' || values.set === name);

if (values['profile-rounds'] !== undefined) {
  const c0 = process.cpuUsage();
  for (let r = 0; r < Number(values['profile-rounds']); r++) for (const [, calls] of sets) for (const call of calls) libs[0].parse(call);
  const c = process.cpuUsage(c0);
  console.log(`${((c.user + c.system) / 1000).toFixed(0)} ms CPU`);
  process.exit(0);
}

if (values.compare) {
  let diffs = 0;
  for (const [name, calls] of sets) {
    for (const [i, call] of calls.entries()) {
      const [a, ...rest] = libs.map((lib) => JSON.stringify(lib.parse(call).json()));
      for (const b of rest) if (a !== b) { diffs++; console.log(`differs: ${name} #${i}`); }
    }
    console.log(`${name}: ${calls.length} texts compared`);
  }
  console.log(diffs === 0 ? 'identical' : `${diffs} differ`);
  process.exit(diffs === 0 ? 0 : 1);
}

const runners = libs.map((l, i) => ({ name: `lib${i} ${l.name}`, run: l.parse }));
if (values.wtf || values['only-wtf']) {
  const wtf = createRequire(join(ROOT, 'package.json'))('wtf_wikipedia');
  runners.push({ name: 'wtf(text).json()', run: (call) => wtf(call.text).json() });
}
const cpu = (f) => {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
if (values['time-only']) {
  // A child of `--processes`: one runner, its CPU time per set summed over the rounds, as JSON.
  const result = {};
  for (const [name, calls] of sets) {
    for (let r = 0; r < Number(values.warmup); r++) for (const call of calls) runners[0].run(call);
    result[name] = cpu(() => { for (let r = 0; r < Number(values.rounds); r++) for (const call of calls) runners[0].run(call); });
  }
  console.log(JSON.stringify(result));
  process.exit(0);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
if (values.interleave) {
  for (const [name, calls] of sets) {
    const totals = runners.map(() => 0);
    const rounds = Number(values.rounds);
    let turn = 0;
    for (let r = -Number(values.warmup); r < rounds; r++) {
      for (const call of calls) {
        turn++;
        for (let k = 0; k < runners.length; k++) {
          const j = (k + turn) % runners.length;
          const t = cpu(() => runners[j].run(call));
          if (r >= 0) totals[j] += t;
        }
      }
    }
    console.log(`== ${name}: ${calls.length} texts, ${rounds} rounds interleaved (CPU ms per round; ratio of sums to the first)`);
    for (const [j, r] of runners.entries()) console.log(`  ${(totals[j] / rounds).toFixed(0).padStart(6)} ms  ×${(totals[j] / totals[0]).toFixed(3)}  ${r.name}`);
  }
  process.exit(0);
}
for (const [name, calls] of sets) {
  const times = runners.map(() => []);
  const rounds = Number(values.rounds);
  for (let r = -Number(values.warmup); r < rounds; r++) {
    // Rotate which runner goes first.
    for (let k = 0; k < runners.length; k++) {
      const j = (k + Math.max(r, 0)) % runners.length;
      const t = cpu(() => { for (const call of calls) runners[j].run(call); });
      if (r >= 0) times[j].push(t);
    }
  }
  console.log(`== ${name}: ${calls.length} texts, ${rounds} rounds (median CPU ms; ratio to the first: median of per-round ratios [min–max])`);
  for (const [j, r] of runners.entries()) {
    const ratios = times[j].map((t, k) => t / times[0][k]);
    console.log(`  ${median(times[j]).toFixed(0).padStart(6)} ms  ×${median(ratios).toFixed(3)} [${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}]  ${r.name}`);
  }
}
