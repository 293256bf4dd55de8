/**
 * The `billing-pay-relay` command line. No argument: start the relay (server.ts). `--help`: usage and every
 * configuration variable with its default, from the one table (config-variables.ts). `--version`. `init [--file PATH]`:
 * a starter `.env` (init-env.ts). Anything else is a usage error, exit code 2.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CONFIG_GROUPS, VARIABLES, type ConfigGroup, type Variable } from './variables.js';
import { writeStarterEnv } from './init-env.js';

const NAME = 'billing-pay-relay';
const USAGE_ERROR = 2;

/** What the command line asks for: start the relay, or exit with this code (its work done). */
export type CommandLine = 'start' | { exitCode: number };

export function runCommandLine(args: string[]): CommandLine {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        file: { type: 'string' },
      },
    });
  } catch (error) {
    // Node's text for an unknown option goes on about `--`; the option's name is what helps.
    const unknown = /^Unknown option '([^']+)'/.exec((error as Error).message)?.[1];
    return usageError(unknown ? `unknown option '${unknown}'` : (error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return done(process.stdout, help());
  if (values.version) return done(process.stdout, `${version()}\n`);
  const [command, ...rest] = positionals;
  if (rest.length) return usageError(`unexpected argument '${rest[0]}'`);
  if (command === 'init') return init(values.file ?? '.env');
  if (command !== undefined) return usageError(`unknown command '${command}'`);
  if (values.file !== undefined) return usageError('--file goes with init');
  return 'start';
}

function done(stream: NodeJS.WriteStream, text: string, exitCode = 0): CommandLine {
  stream.write(text);
  return { exitCode };
}

function usageError(message: string): CommandLine {
  return done(process.stderr, `${NAME}: ${message}\nRun ${NAME} --help for usage.\n`, USAGE_ERROR);
}

/** The installed package's version: the nearest package.json above this module (src/relay/, or a dist/relay/ chunk). */
function version(): string {
  for (let dir = new URL('../', import.meta.url); ; dir = new URL('../../', dir)) {
    try {
      return (JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { version: string }).version;
    } catch (error) {
      if (dir.pathname === '/') throw error;
    }
  }
}

function help(): string {
  const entries = Object.entries(VARIABLES) as [string, Variable<unknown>][];
  const width = Math.max(...entries.map(([name]) => name.length)) + 2;
  const lines = [
    `Usage: ${NAME} [init [--file PATH]] [--help] [--version]`,
    '',
    `  ${NAME}                   start the relay, configured by the environment and ./.env`,
    `  ${NAME} init              write a starter .env here, with a fresh SESSION_SECRET (never over a file)`,
    `  ${NAME} init --file PATH  … to PATH instead`,
    `  ${NAME} -h, --help        this text`,
    `  ${NAME} -v, --version     the version (${version()})`,
    '',
    'Configuration: environment variables, or NAME=value lines in ./.env (a variable set in the environment wins).',
    'What each means: the comments of the .env that init writes (the same as the package’s .env.example).',
  ];
  for (const group of Object.keys(CONFIG_GROUPS) as ConfigGroup[]) {
    lines.push('', `${CONFIG_GROUPS[group]}:`);
    for (const [name, v] of entries.filter(([, v]) => v.group === group)) {
      const facts = [v.required && 'required', v.secret && 'secret', defaultText(v)].filter(Boolean);
      lines.push(`  ${name.padEnd(width)}${facts.join(', ')}`.trimEnd());
    }
  }
  return `${lines.join('\n')}\n`;
}

function defaultText(v: Variable<unknown>): string {
  if (v.default === undefined) return '';
  if (!v.default) return `default empty${v.empty ? ` (${v.empty})` : ''}`;
  return `default ${v.default}${v.empty ? ` (empty: ${v.empty})` : ''}`;
}

function init(file: string): CommandLine {
  const path = resolve(file);
  try {
    writeStarterEnv(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EEXIST'
        ? `${path} already exists; it is left as it is. Remove it, or write elsewhere with --file PATH.`
        : `cannot write ${path}: ${(error as Error).message}`;
    return done(process.stderr, `${NAME} init: ${why}\n`, 1);
  }
  const required = (Object.entries(VARIABLES) as [string, Variable<unknown>][])
    .filter(([, v]) => v.required)
    .map(([name]) => name);
  const dir = dirname(path);
  const start =
    basename(path) === '.env'
      ? [
          `then start the relay ${dir === process.cwd() ? 'here' : `in ${dir}`} (it names anything still missing):`,
          `  npx ${NAME}`,
        ]
      : [
          'then rename it .env in the directory the relay starts in (the only file it reads),',
          'or set its lines in the environment.',
        ];
  return done(
    process.stdout,
    [
      `Wrote ${path} (readable by you only): every variable (its default, or an example to replace), and a fresh SESSION_SECRET.`,
      `Next: fill in ${required.join(', ')} and the EPS_UUID_* of each payment system you offer;`,
      ...start,
      'SESSION_SECRET is for the backend that signs client sessions: share it with that backend only.',
      '',
    ].join('\n'),
  );
}
