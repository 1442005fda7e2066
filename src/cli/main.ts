#!/usr/bin/env node
/**
 * `wikistruct <command> ...`: dispatches to one module per command, loaded on demand so that
 * `convert` never pays for the service's dependencies and vice versa. Each command module exports
 * `run(argv): Promise<number>` and returns the process exit code.
 */
import { createRequire } from 'node:module';

type Command = { summary: string; load: () => Promise<{ run: (argv: string[]) => Promise<number> }> };

const COMMANDS: Record<string, Command> = {
  // Each entry: the command name, a one-line summary for `wikistruct --help`, and its module.
  convert: { summary: 'convert HTML, envelopes, snapshots and XML dumps to Article JSON/NDJSON', load: () => import('./convert.js') },
  import: { summary: 'load articles (HTML, envelopes, NDJSON, snapshots, XML dumps) into the service\'s article store', load: () => import('./import.js') },
  serve: {
    summary: 'run the HTTP service: accounts and tokens (/v1), content API (/v2)',
    // Before the service's modules load: the start would grow the young generation for good
    // (service/young-generation.ts; startServer releases it once listening).
    load: async () => {
      (await import('../service/young-generation.js')).holdYoungGeneration();
      return import('./serve.js');
    },
  },
  snapshot: { summary: 'build the structured snapshots the service offers (one .tar.gz per stored project)', load: () => import('./snapshot.js') },
  user: { summary: 'manage accounts: add, list, disable, enable, delete', load: () => import('./user.js') },
  worker: { summary: 'convert the shards of distributed runs (convert --queue) taken from Redis', load: () => import('./worker.js') },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return (
    `usage: wikistruct <command> [options]\n       wikistruct --version\n\ncommands:\n${lines.join('\n')}\n\n` +
    `Run \`wikistruct <command> --help\` for a command's options.\n`
  );
}

/**
 * The installed package's version. Read through the package's own name (a self-reference, which
 * its `exports` allow) so that it is right wherever the code runs from: sources, dist/, or an
 * installed copy in someone's node_modules.
 */
function version(): string {
  const pkg: unknown = createRequire(import.meta.url)('wikistruct/package.json');
  if (typeof pkg !== 'object' || pkg === null || !('version' in pkg) || typeof pkg.version !== 'string') {
    throw new Error('package.json has no version');
  }
  return pkg.version;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v' || name === '-V') {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    process.stderr.write(`wikistruct: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  const module = await command.load();
  return module.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`wikistruct: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
