/**
 * docs/relay.md's configuration tables and `.env.example` are made from the relay's one table of variables
 * (src/relay/config/variables.ts, by scripts/docs/config-tables.ts in `npm run build`): this fails when they are
 * stale, and checks that what they say is what `loadConfig` does.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configTables, envExample } from '../../scripts/docs/config-tables.js';
import { loadConfig } from '../../src/relay/config/load.js';
import { VARIABLES } from '../../src/relay/config/variables.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => readFileSync(`${root}${file}`, 'utf8');

describe('the relay configuration’s docs', () => {
  it('docs/relay.md and .env.example are made from the table (npm run build)', () => {
    assert.ok(read('docs/relay.md').includes(configTables()), 'docs/relay.md is out of date: npm run build');
    assert.equal(envExample(), read('.env.example'), '.env.example is out of date: npm run build');
  });

  it('name every variable the relay reads, once', () => {
    const page = read('docs/relay.md');
    for (const name of Object.keys(VARIABLES)) {
      assert.equal(page.split(`| \`${name}\` |`).length, 2, `${name} has one row`);
      assert.match(read('.env.example'), new RegExp(`^${name}=`, 'm'));
    }
  });

  it('.env.example, with its required values filled in, starts a relay with the documented defaults', () => {
    const env = Object.fromEntries(
      read('.env.example')
        .split('\n')
        .filter((line) => /^[A-Z_0-9]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    const config = loadConfig({ ...env, BILLING_USERNAME: 'u', BILLING_PASSWORD: 'p', EPS_UUID_A: 'a' });
    assert.equal(config.port, Number(VARIABLES.PORT.default));
    assert.equal(config.maxAmountText, VARIABLES.MAX_AMOUNT.default);
    assert.deepEqual(config.allowedOrigins, ['https://shop.example']);
  });
});
