import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/relay/observability/logger.js';

/** The relay's logger, writing its lines into `lines`. */
function capturedLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger('info', sink) };
}

describe('relay logs', () => {
  it('redact credentials, tokens, e-mails and phones nested in a logged object, errors included', () => {
    const { lines, logger } = capturedLogger();
    logger.error(
      {
        err: Object.assign(new Error('failed'), { password: 'pw-1' }),
        upstream: {
          request: { headers: { authorization: 'Bearer tok-123', Authorization: 'Basic YmlsbGluZzpwdw==' } },
        },
        deeper: { a: { b: { c: { d: [{ Token: 'tok-789' }] } } } },
        a: { b: { email: 'client@example.com', phone: '+7 900 000-00-00' } },
        config: { billingPassword: 'pw-2' },
        token: 'tok-456',
        keep: { amount: '1500.50' },
      },
      'billing failed',
    );
    const text = lines.join('');
    for (const secret of [
      'tok-123',
      'YmlsbGluZzpwdw==',
      'tok-789',
      'pw-1',
      'pw-2',
      'tok-456',
      'client@example.com',
      '+7 900 000-00-00',
    ]) {
      assert.ok(!text.includes(secret), `${secret} is redacted`);
    }
    assert.match(text, /\[redacted\]/);
    assert.match(text, /"amount":"1500.50"/, 'the rest is logged');
    const line = JSON.parse(lines[0]!) as { err: { type: string; message: string; stack: string } };
    assert.equal(line.err.type, 'Error', 'an error stays an error');
    assert.equal(line.err.message, 'failed');
    assert.match(line.err.stack, /^Error: failed/);
  });

  it('censor secret names in any spelling, stop at a depth limit, and walk shared and circular objects once', () => {
    const { lines, logger } = capturedLogger();
    let deep: Record<string, unknown> = { password: 'pw-deep' };
    for (let i = 0; i < 12; i += 1) deep = { next: deep };
    const shared: Record<string, unknown> = { access_token: 'tok-1' };
    for (let i = 0; i < 30; i += 1) shared[`ref${i}`] = shared; // 30 self-references: walked once, not 30^depth times
    const started = performance.now();
    logger.info(
      {
        deep,
        shared,
        headers: { 'Set-Cookie': 'sid=abc', 'Proxy-Authorization': 'Basic eA==' },
        sessionSecret: 's3',
        at: new Date(0),
      },
      'x',
    );
    assert.ok(performance.now() - started < 200, 'circular objects do not blow up');
    const text = lines.join('');
    for (const secret of ['pw-deep', 'tok-1', 'sid=abc', 'Basic eA==', 's3'])
      assert.ok(!text.includes(secret), `${secret} is redacted`);
    assert.match(text, /\[too deep\]/);
    assert.match(text, /"at":"1970-01-01T00:00:00.000Z"/, 'a date logs as a date');
  });
});
