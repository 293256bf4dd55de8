/**
 * Property-based fuzzing of `POST /payments` over real HTTP and raw sockets: thousands of generated bodies, headers,
 * content types, hostile text and malformed requests (FUZZ_RUNS each, 1 000 by default: more than 5 000 in all). Not
 * one may get a 5xx; a request the shared model refuses never reaches the billing, and every answer is the documented
 * error shape; what the billing does receive is clean text and canonical addresses; the relay answers afterwards.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import fc from 'fast-check';
import { isCleanText } from '../../src/eps/clean-text.js';
import { checkPayment } from '../../src/eps/request.js';
import { PROBLEM_TEXTS_EN, type ProblemKey } from '../../src/eps/messages.js';
import { SHOP, epsCalls, params, paymentA, startStack, type Stack } from './harness.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const rules = { maxAmount: 10_000_000n };

const REFUSAL_CODES = new Set([
  'invalid_json',
  'unsupported_media_type',
  'payload_too_large',
  'validation_failed',
  'origin_not_allowed',
  'invalid_idempotency_key',
]);

const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`));

/** A valid payment with one part replaced by something generated. */
const mutatedPayment = fc
  .tuple(
    fc.constantFrom(
      'system',
      'amount',
      'agreement_param_id',
      'agreement_param_value',
      'eps_params',
      'param',
      'extra_param',
    ),
    fc.oneof(
      fc.anything(),
      fc.string(),
      fc.double(),
      fc.integer(),
      fc.constantFrom('0', '-1', '1.001', '1e5', '100000.01', '', ' ', 'NaN', 'Infinity'),
    ),
    fc.string({ maxLength: 30 }),
  )
  .map(([part, value, name]) => {
    const body: Record<string, unknown> = paymentA();
    const params = [...(body.eps_params as { name: string; value: unknown }[])];
    if (part === 'param') params[1] = { name: 'confirmation_return_url', value };
    else if (part === 'extra_param') params.push({ name, value });
    else body[part] = value;
    if (part === 'param' || part === 'extra_param') body.eps_params = params;
    return body;
  });

const anyBody = fc.oneof(mutatedPayment, fc.anything(), fc.dictionary(fc.string(), fc.anything()));

/** The bodies the shared model refuses: those the relay must never pass on. */
const refusedBody = anyBody.filter((body) => !checkPayment(body, rules).ok);

const jsonType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON');
const otherType = fc.oneof(
  fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/jsonx', ''),
  printable(40),
);

describe('relay: fuzzing POST /payments', () => {
  let stack: Stack;
  let sent = 0;
  before(async () => {
    stack = await startStack();
  });
  after(() => stack.close());

  async function expectRefused(res: Response) {
    sent += 1;
    assert.ok(res.status >= 400 && res.status < 500, `status ${res.status}`);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await res.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['error']);
    const error = body.error as Record<string, unknown>;
    assert.ok(REFUSAL_CODES.has(error.code as string), `code ${String(error.code)}`);
    assert.equal(typeof error.message, 'string');
    assert.ok(Object.keys(error).every((k) => ['code', 'message', 'fields'].includes(k)));
    if (error.fields !== undefined) {
      // Each field's problem is a key of the shared model, with its English text.
      for (const field of Object.values(error.fields as Record<string, { problem: string; message: string }>)) {
        assert.ok(Object.hasOwn(PROBLEM_TEXTS_EN, field.problem), `problem ${field.problem}`);
        assert.equal(field.message, PROBLEM_TEXTS_EN[field.problem as ProblemKey]);
      }
    }
  }

  it('refused JSON bodies get a 4xx in the error shape', async () => {
    await fc.assert(
      fc.asyncProperty(refusedBody, jsonType, async (body, type) => {
        await expectRefused(await stack.post(JSON.stringify(body) ?? 'null', { 'content-type': type }));
      }),
      { numRuns: RUNS },
    );
  });

  it('raw text, wrong content types, foreign origins and odd idempotency keys get a 4xx too', async () => {
    const valid = JSON.stringify(paymentA());
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({
            body: fc.string({ maxLength: 200 }).filter((s) => !checkPayment(safeParse(s), rules).ok),
            type: jsonType,
            origin: fc.constant(SHOP),
          }),
          fc.record({ body: fc.constant(valid), type: otherType, origin: fc.constant(SHOP) }),
          fc.record({ body: fc.constant(valid), type: jsonType, origin: printable(60).filter((o) => o !== SHOP) }),
        ),
        fc.option(
          fc.oneof(
            printable(300).filter((k) => !/^[\x21-\x7e]{1,255}$/.test(k)),
            fc.constant(''),
          ),
          { nil: undefined },
        ),
        async ({ body, type, origin }, key) => {
          const headers: Record<string, string> = { 'content-type': type, origin };
          if (key !== undefined && body !== valid) headers['idempotency-key'] = key;
          await expectRefused(await stack.post(body, headers));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a body too large is a 413, in the error shape', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 16 * 1024 + 1, max: 200 * 1024 }), async (size) => {
        await expectRefused(await stack.post(`{"padding":"${'x'.repeat(size)}"}`));
      }),
      { numRuns: 20 },
    );
  });

  it('control and invisible format characters anywhere in a forwarded text are a 422', async () => {
    const field = fc.constantFrom('comment', 'email', 'phone', 'confirmation_return_url', 'agreement_param_value');
    await fc.assert(
      fc.asyncProperty(
        field,
        fc.string({ maxLength: 12, unit: 'grapheme' }),
        fc.constantFrom(...DIRTY),
        fc.nat(40),
        async (name, text, dirty, at) => {
          const clean = {
            comment: 'Payment',
            email: 'client@example.com',
            phone: '+7 900 123-45-67',
            confirmation_return_url: `${SHOP}/paid`,
            agreement_param_value: 'AG-1001',
          }[name];
          const cut = Math.min(at, clean.length - 1) || 1;
          const value = `${clean.slice(0, cut)}${dirty}${text}${clean.slice(cut)}`;
          const body =
            name === 'agreement_param_value'
              ? { ...paymentA(), agreement_param_value: value }
              : paymentA({ [name]: value });
          const res = await stack.post(body);
          await expectRefused(res);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('raw-socket requests: malformed, smuggled, truncated or odd ones get no 5xx and pay nothing', async () => {
    const port = Number(new URL(stack.relay.url).port);
    const headerName = fc.oneof(
      fc.constantFrom(
        'Content-Length',
        'Transfer-Encoding',
        'Origin',
        'Content-Type',
        'Idempotency-Key',
        'Host',
        'X-Request-Id',
        'Authorization',
        'Expect',
      ),
      printable(20),
    );
    const headerValue = fc.oneof(
      fc.constantFrom(
        'chunked',
        'gzip, chunked',
        '0',
        '-1',
        '99999999999',
        SHOP,
        'application/json',
        '100-continue',
        'Bearer a.b.c',
      ),
      fc.string({ maxLength: 60, unit: 'binary' }),
    );
    const rawBody = fc.oneof(
      fc.string({ maxLength: 300, unit: 'binary' }),
      fc.constant(JSON.stringify(paymentA()).slice(0, 50)),
      fc.constant('0\r\n\r\n'),
      fc.constant('5\r\nhello\r\n0\r\n\r\n'),
    );
    const request = fc
      .record({
        method: fc.oneof(
          fc.constantFrom('POST', 'GET', 'DELETE', 'OPTIONS', 'PUT', 'HEAD', 'CONNECT', 'TRACE'),
          printable(10),
        ),
        path: fc.oneof(
          fc.constantFrom(
            '/payments',
            '/payment-methods/1',
            '/session',
            '/config',
            '/metrics',
            '*',
            '//payments',
            '/payments?x=1',
            '/%2e%2e/payments',
          ),
          printable(80),
        ),
        version: fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 ', ''),
        headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 8 }),
        body: rawBody,
        lineEnd: fc.constantFrom('\r\n', '\n', '\r'),
      })
      .map(({ method, path, version, headers, body, lineEnd }) =>
        Buffer.from(
          `${method} ${path} ${version}${lineEnd}${headers.map(([n, v]) => `${n}: ${v}`).join(lineEnd)}${lineEnd}${lineEnd}${body}`,
          'latin1',
        ),
      );
    const before = epsCalls(stack).length;
    await fc.assert(
      fc.asyncProperty(request, async (bytes) => {
        sent += 1;
        const answer = await rawExchange(port, bytes);
        for (const [, status] of answer.matchAll(/^HTTP\/1\.[01] (\d{3})/gm))
          assert.ok(Number(status) < 500, `status ${status} for ${JSON.stringify(bytes.toString('latin1'))}`);
      }),
      { numRuns: RUNS },
    );
    assert.equal(epsCalls(stack).length, before, 'no raw request paid');
    assert.equal((await fetch(`${stack.relay.url}/healthz`)).status, 200, 'the relay answers afterwards');
  });

  it('none of them reached the billing', () => {
    assert.ok(sent >= 4 * RUNS, `${sent} requests sent`);
    assert.equal(epsCalls(stack).length, 0);
  });

  it('valid and near-valid payments mixed: exactly the valid ones reach the billing, clean and canonical', async () => {
    const url = fc.oneof(
      fc.constantFrom(
        `${SHOP}/paid`,
        `${SHOP}/a b/../paid?x=ä#f`,
        'HTTP://SHOP.TEST:8080/x',
        `${SHOP}\\@evil.example/`,
        'http://evil.example/',
        `${SHOP}/\u2028`,
      ),
      fc.webUrl({ withQueryParameters: true, withFragments: true }).map((u) => u.replace(/^https?:\/\/[^/?#]*/, SHOP)),
    );
    const payment = fc.record({
      amount: fc.oneof(
        fc.constantFrom('1', '10.5', '1500.50', '0.01', '0', '1.001', '-5', '1e2'),
        fc.integer({ min: 1, max: 99999 }).map(String),
      ),
      comment: fc.option(fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }), { nil: undefined }),
      email: fc.option(fc.oneof(fc.emailAddress(), fc.string({ maxLength: 20 })), { nil: undefined }),
      url,
      lookup: fc.oneof(fc.constantFrom('AG-1001', 'AG-1002'), fc.string({ maxLength: 20, unit: 'grapheme' })),
    });
    let accepted = 0;
    const before = epsCalls(stack).length;
    await fc.assert(
      fc.asyncProperty(payment, async ({ amount, comment, email, url, lookup }) => {
        const extra: Record<string, unknown> = { confirmation_return_url: url };
        if (comment !== undefined) extra.comment = comment;
        if (email !== undefined) extra.email = email;
        const body = {
          system: 'A',
          amount,
          agreement_param_id: 5,
          agreement_param_value: lookup,
          eps_params: params({ confirmation_type: 'redirect', ...extra }),
        };
        const checked = checkPayment(body, rules);
        const valid = checked.ok && new URL(checked.value.params.confirmation_return_url as string).origin === SHOP;
        const res = await stack.post(body);
        assert.ok(res.status < 500, `status ${res.status}`);
        if (!valid) {
          await expectRefused(res);
          return;
        }
        // Valid: the billing decides (201, or 422 for an agreement it does not know).
        assert.ok(res.status === 201 || res.status === 422, `status ${res.status}`);
        await res.body?.cancel();
        accepted += 1;
        const sentBody = epsCalls(stack).at(-1)!;
        for (const p of sentBody.eps_params as { name: string; value: unknown }[]) {
          if (typeof p.value === 'string') assert.ok(isCleanText(p.value), `${p.name}: ${JSON.stringify(p.value)}`);
          if (p.name === 'confirmation_return_url') assert.equal(p.value, new URL(p.value as string).href);
        }
      }),
      { numRuns: RUNS },
    );
    assert.equal(epsCalls(stack).length, before + accepted, 'exactly the valid ones reached the billing');
    assert.ok(accepted > RUNS / 10, `${accepted} valid payments among the generated`);
  });
});

const DIRTY = [
  '\u0000',
  '\u0001',
  '\t',
  '\n',
  '\r',
  '\u001f',
  '\u007f',
  '\u0080',
  '\u0085',
  '\u009f',
  '\u00ad',
  '\u061c',
  '\u180e',
  '\u200b',
  '\u200d',
  '\u200f',
  '\u2028',
  '\u2029',
  '\u202a',
  '\u202e',
  '\u2060',
  '\u2066',
  '\u2069',
  '\ufeff',
  '\ufff9',
  '\ud800',
  '\udfff',
  '\u{e0001}',
];

/** Writes `bytes` on a fresh connection, half-closes it and answers whatever came back before the relay closed it. */
function rawExchange(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(answer);
    }, 3_000);
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error),
    );
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.end(bytes);
  });
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
