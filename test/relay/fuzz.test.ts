/**
 * Property-based fuzzing of `POST /payments` over real HTTP: thousands of generated bodies, headers and content
 * types. Not one may get a 5xx, not one may reach the billing, and every answer is the documented error shape.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkPayment } from '../../src/eps/request.js';
import { PROBLEM_TEXTS_EN, type ProblemKey } from '../../src/eps/messages.js';
import { SHOP, epsCalls, paymentA, startStack, type Stack } from './harness.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1500);
const rules = { maxAmount: 10_000_000n };

const REFUSAL_CODES = new Set(['invalid_json', 'unsupported_media_type', 'payload_too_large', 'validation_failed', 'origin_not_allowed', 'invalid_idempotency_key']);

const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`));

/** A valid payment with one part replaced by something generated. */
const mutatedPayment = fc
  .tuple(
    fc.constantFrom('system', 'amount', 'agreement_param_id', 'agreement_param_value', 'eps_params', 'param', 'extra_param'),
    fc.oneof(fc.anything(), fc.string(), fc.double(), fc.integer(), fc.constantFrom('0', '-1', '1.001', '1e5', '100000.01', '', ' ', 'NaN', 'Infinity')),
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
const otherType = fc.oneof(fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/jsonx', ''), printable(40));

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
          fc.record({ body: fc.string({ maxLength: 200 }).filter((s) => !checkPayment(safeParse(s), rules).ok), type: jsonType, origin: fc.constant(SHOP) }),
          fc.record({ body: fc.constant(valid), type: otherType, origin: fc.constant(SHOP) }),
          fc.record({ body: fc.constant(valid), type: jsonType, origin: printable(60).filter((o) => o !== SHOP) }),
        ),
        fc.option(fc.oneof(printable(300).filter((k) => !/^[\x21-\x7e]{1,255}$/.test(k)), fc.constant('')), { nil: undefined }),
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

  it('none of them reached the billing', () => {
    assert.ok(sent >= 2 * RUNS, `${sent} requests sent`);
    assert.equal(epsCalls(stack).length, 0);
  });
});

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
