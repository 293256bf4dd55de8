/**
 * `npm start` with `BASE_PATH=/relay`: the demo pages name the relay with its path wherever the widget or the
 * playground reads it, and its origin in their Content-Security-Policy (a source with a path would allow that one URL,
 * not `/relay/config`).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoPage } from '../../scripts/demo-pages.js';

const addresses = { relay: 'http://localhost:9101/relay', sandbox: 'http://localhost:9102' };
const policyOf = (page: string) => /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(page)![1]!;

describe('demo pages with a relay under a path', () => {
  for (const name of ['index.html', 'account.html', 'playground.html']) {
    it(`${name}: the relay with its path for the page, its origin for the policy`, async () => {
      const page = await demoPage(name, addresses);
      const policy = policyOf(page);
      assert.match(policy, /connect-src 'self' http:\/\/localhost:9101;/);
      assert.doesNotMatch(policy, /\/relay/);
      assert.doesNotMatch(page, /localhost:8787/);
      assert.match(page, /(relay|data-relay)="http:\/\/localhost:9101\/relay"/);
    });
  }
});
