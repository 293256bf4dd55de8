/**
 * `billing-pay-relay`'s command line, run as the package's bin (the relay `npm run build` makes) in a process of its
 * own: `--help` lists the one configuration table, `--version`, `init` writes a starter `.env` that the relay starts
 * with, and anything else is a usage error.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { CONFIG_GROUPS, VARIABLES, type Variable } from '../../src/relay/config/variables.js';
import { loadConfig } from '../../src/relay/config/load.js';
import { envExample } from '../../src/relay/config/env-example.js';
import { MIN_SECRET_BYTES, createClientSession } from '../../src/relay/session/client-session.js';
import { SHOP } from './harness.js';
import { BUILT_RELAY, spawnRelay } from './relay-process.js';

const execFileP = promisify(execFile);
const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const variables = Object.entries(VARIABLES) as [string, Variable<unknown>][];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built relay with `args` in `cwd` to its end. */
async function relay(args: string[], cwd = tmpdir()): Promise<Run> {
  try {
    const { stdout, stderr } = await execFileP(process.execPath, [BUILT_RELAY, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '' },
      timeout: 10_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: unknown; stdout: string; stderr: string };
    if (typeof e.code !== 'number') throw error;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A `.env` file's `NAME=value` lines. */
function parseEnv(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => /^[A-Z_0-9]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

describe('billing-pay-relay command line', () => {
  const dirs: string[] = [];
  const freshDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'billing-pay-cli-'));
    dirs.push(dir);
    return dir;
  };
  after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('--help lists every variable of the configuration table under its group, with its default', async () => {
    const help = await relay(['--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.equal((await relay(['-h'])).stdout, help.stdout, '-h is --help');
    assert.match(help.stdout, /^Usage: billing-pay-relay/);
    const lines = help.stdout.split('\n');
    const headings = Object.values(CONFIG_GROUPS).map((title) => lines.indexOf(`${title}:`));
    assert.ok(
      headings.every((at, i) => at > 0 && (i === 0 || at > headings[i - 1]!)),
      'every group, in the table’s order',
    );
    const groups = Object.keys(CONFIG_GROUPS);
    for (const [name, v] of variables) {
      const at = lines.findIndex((line) => line.trim().split(/\s+/)[0] === name);
      assert.ok(at > 0, `${name} is listed`);
      const group = groups.indexOf(v.group);
      assert.ok(at > headings[group]! && (headings[group + 1] ?? Infinity) > at, `${name} under ${v.group}`);
      const line = lines[at]!;
      assert.equal(/\brequired\b/.test(line), v.required === true, `${name}: required? ${line}`);
      assert.equal(/\bsecret\b/.test(line), v.secret === true, `${name}: secret? ${line}`);
      if (v.default) assert.ok(line.includes(`default ${v.default}`), `${name}: its default, ${line}`);
      else assert.equal(/\bdefault\b/.test(line), v.default !== undefined, `${name}: no default? ${line}`);
    }
    const listed = lines.filter((line) => /^ {2}[A-Z][A-Z0-9_]+(\s|$)/.test(line));
    assert.equal(listed.length, variables.length, 'no variable twice, none that the table lacks');
  });

  it('--version prints the package’s version', async () => {
    for (const flag of ['--version', '-v'])
      assert.deepEqual(await relay([flag]), {
        code: 0,
        stdout: `${PACKAGE.version}\n`,
        stderr: '',
      });
  });

  it('anything else is a usage error: exit code 2, what was wrong, where help is — and no relay', async () => {
    const cases: [string[], RegExp][] = [
      [['--port', '80'], /unknown option '--port'/],
      [['start'], /unknown command 'start'/],
      [['init', 'extra'], /unexpected argument 'extra'/],
      [['--file', 'x.env'], /--file goes with init/],
      [['init', '--file'], /--file/],
    ];
    for (const [args, why] of cases) {
      const { code, stdout, stderr } = await relay(args);
      assert.equal(code, 2, args.join(' '));
      assert.match(stderr, why);
      assert.match(stderr, /billing-pay-relay --help/);
      assert.equal(stdout, '');
    }
  });

  describe('init', () => {
    let sandbox: Sandbox;
    before(async () => {
      sandbox = await startSandbox({ port: 0 });
    });
    after(() => sandbox.close());

    it('writes .env.example with a fresh SESSION_SECRET, readable by its owner only, and says what next', async () => {
      const [one, two] = [freshDir(), freshDir()];
      const run = await relay(['init'], one);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, new RegExp(`Wrote ${join(one, '.env')}`));
      assert.match(run.stdout, /npx billing-pay-relay/);
      for (const [name, v] of variables) if (v.required) assert.match(run.stdout, new RegExp(name), name);
      await relay(['init', '--file', 'other.env'], two);

      const written = readFileSync(join(one, '.env'), 'utf8');
      assert.equal(statSync(join(one, '.env')).mode & 0o777, 0o600);
      const secret = parseEnv(written).SESSION_SECRET!;
      assert.match(secret, /^[A-Za-z0-9_-]+$/, 'base64url');
      assert.ok(Buffer.byteLength(secret) >= MIN_SECRET_BYTES, `${secret.length} characters`);
      assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret), 'the secret is never printed');
      assert.equal(written.replace(`SESSION_SECRET=${secret}`, 'SESSION_SECRET='), envExample(), 'all else as is');
      assert.notEqual(parseEnv(readFileSync(join(two, 'other.env'), 'utf8')).SESSION_SECRET, secret, 'fresh');
    });

    it('never writes over a file: exit 1, the file as it was', async () => {
      const dir = freshDir();
      for (const file of ['.env', 'mine.env']) {
        writeFileSync(join(dir, file), 'SESSION_SECRET=the-one-the-backend-already-has\n');
        const run = await relay(file === '.env' ? ['init'] : ['init', '--file', file], dir);
        assert.equal(run.code, 1, file);
        assert.match(run.stderr, new RegExp(`${join(dir, file)} already exists`));
        assert.equal(readFileSync(join(dir, file), 'utf8'), 'SESSION_SECRET=the-one-the-backend-already-has\n');
      }
    });

    it('its .env, with the required values filled in, starts the relay, whose sessions take the fresh secret', async () => {
      const dir = freshDir();
      assert.equal((await relay(['init'], dir)).code, 0);
      const file = join(dir, '.env');
      const filled: Record<string, string> = { ...sandbox.relayEnv(), ALLOWED_ORIGINS: SHOP };
      const text = readFileSync(file, 'utf8').replace(/^([A-Z_0-9]+)=.*$/gm, (line, name: string) =>
        name in filled ? `${name}=${filled[name]}` : line,
      );
      writeFileSync(file, text);
      const secret = parseEnv(text).SESSION_SECRET!;
      assert.equal(loadConfig(parseEnv(text)).sessionSecret, secret);

      const started = await spawnRelay({}, undefined, { built: true, cwd: dir });
      try {
        const session = await createClientSession({ agreementId: 1001, ttlSeconds: 60 }, secret);
        const res = await fetch(`${started.url}/session`, {
          headers: { origin: SHOP, authorization: `Bearer ${session}` },
        });
        assert.equal(res.status, 200, await res.clone().text());
        assert.deepEqual(await res.json(), { agreement_id: 1001 });
        assert.ok(!started.output().includes(secret), 'the secret is not logged');
      } finally {
        await started.stop('SIGTERM');
      }
    });
  });
});
