import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/relay/logger.js';

describe('relay logs', () => {
  it('redact credentials, tokens, e-mails and phones nested in a logged object, errors included', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger('info', sink);
    logger.error({
      err: Object.assign(new Error('failed'), { password: 'pw-1' }),
      upstream: { request: { headers: { authorization: 'Bearer tok-123', Authorization: 'Basic YmlsbGluZzpwdw==' } } },
      deeper: { a: { b: { c: { d: [{ Token: 'tok-789' }] } } } },
      a: { b: { email: 'client@example.com', phone: '+7 900 000-00-00' } },
      config: { billingPassword: 'pw-2' },
      token: 'tok-456',
      keep: { amount: '1500.50' },
    }, 'billing failed');
    const text = lines.join('');
    for (const secret of ['tok-123', 'YmlsbGluZzpwdw==', 'tok-789', 'pw-1', 'pw-2', 'tok-456', 'client@example.com', '+7 900 000-00-00']) {
      assert.ok(!text.includes(secret), `${secret} is redacted`);
    }
    assert.match(text, /\[redacted\]/);
    assert.match(text, /"amount":"1500.50"/, 'the rest is logged');
    const line = JSON.parse(lines[0]!) as { err: { type: string; message: string; stack: string } };
    assert.equal(line.err.type, 'Error', 'an error stays an error');
    assert.equal(line.err.message, 'failed');
    assert.match(line.err.stack, /^Error: failed/);
  });
});
