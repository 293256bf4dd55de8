/**
 * Issue 12, points 1 and 2, over real HTTP against the sandbox: text the relay forwards is clean, return URLs go on in
 * the form the relay checked, and a body that is not JSON — numbers JSON forbids included — is a 400.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_LOOKUPS, SHOP, epsCalls, params, paymentA, startStack, type Stack } from './harness.js';

/** Control, invisible and unassigned characters, each once. */
const DIRTY = [
  '\u0000',
  '\t',
  '\n',
  '\r',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u00ad',
  '\u200b',
  '\u200e',
  '\u202e',
  '\u2028',
  '\u2029',
  '\u2066',
  '\ufeff',
  '\ud800',
  // Default-ignorable (Hangul fillers, the combining grapheme joiner, a variation selector), private-use, unassigned.
  '\u3164',
  '\u115f',
  '\uffa0',
  '\u034f',
  '\ufe0f',
  '\ue000',
  '\u{f0000}',
  '\u0378',
  '\ufdd0',
  '\uffff',
];

describe('relay: forwarded text is clean (issue 12.1)', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { ALLOWED_LOOKUPS: ALL_LOOKUPS } });
  });
  after(() => stack.close());

  async function refused(body: unknown, field: string) {
    const before = epsCalls(stack).length;
    const res = await stack.post(body);
    const answer = (await res.json()) as { error: { code: string; fields?: Record<string, string> } };
    assert.equal(res.status, 422, JSON.stringify(answer));
    assert.equal(answer.error.code, 'validation_failed');
    assert.ok(answer.error.fields?.[field], `${field} named in ${JSON.stringify(answer.error.fields)}`);
    assert.equal(epsCalls(stack).length, before, 'nothing reached the billing');
  }

  it('a control or invisible format character in any text field is a 422 naming the field', async () => {
    for (const c of DIRTY) {
      const label = `U+${c.codePointAt(0)!.toString(16)}`;
      await refused(paymentA({ comment: `pay${c}ment` }), 'eps_params.comment').catch((e: Error) =>
        assert.fail(`${label} comment: ${e.message}`),
      );
      await refused(paymentA({ email: `a${c}b@example.com` }), 'eps_params.email').catch((e: Error) =>
        assert.fail(`${label} email: ${e.message}`),
      );
      await refused(paymentA({ phone: `+7 900${c}123-45-67` }), 'eps_params.phone').catch((e: Error) =>
        assert.fail(`${label} phone: ${e.message}`),
      );
      await refused({ ...paymentA(), agreement_param_value: `AG${c}1001` }, 'agreement_param_value').catch((e: Error) =>
        assert.fail(`${label} lookup: ${e.message}`),
      );
      await refused(
        { ...paymentA(), agreement_param_id: 1, agreement_param_value: `login${c}x` },
        'agreement_param_value',
      ).catch((e: Error) => assert.fail(`${label} login: ${e.message}`));
      await refused(
        {
          system: 'B',
          amount: '10',
          agreement_param_id: 5,
          agreement_param_value: 'AG-1001',
          eps_params: params({ name: `Ivan${c}Petrov` }),
        },
        'eps_params.name',
      ).catch((e: Error) => assert.fail(`${label} name: ${e.message}`));
      await refused(
        paymentA({ confirmation_return_url: `${SHOP}/back${c}x` }),
        'eps_params.confirmation_return_url',
      ).catch((e: Error) => assert.fail(`${label} url: ${e.message}`));
    }
  });

  it('a header injection or a backslash, user info or host that reads differently is refused, not forwarded', async () => {
    const bad = [
      `${SHOP}/back\r\nSet-Cookie: sid=x`,
      'http://shop.test:8080\\@evil.example/',
      'http://shop.test:8080\\\\evil.example/',
      'http://user:pw@shop.test:8080/paid',
      'http://@shop.test:8080/paid',
      'http:shop.test:8080/paid',
      'http:/shop.test:8080/paid',
      'http://SHOP.test%2e:8080/paid',
      'http://shop。test:8080/paid',
      ' \u0000http://shop.test:8080/paid',
    ];
    for (const url of bad)
      await refused(paymentA({ confirmation_return_url: url }), 'eps_params.confirmation_return_url').catch(
        (e: Error) => assert.fail(`${JSON.stringify(url)}: ${e.message}`),
      );
  });

  it('a return URL is forwarded in its WHATWG serialisation, never the client’s text', async () => {
    const before = epsCalls(stack).length;
    const res = await stack.post(paymentA({ confirmation_return_url: 'HTTP://Shop.Test:8080/a b/../paid?x=ä#frag' }));
    assert.equal(res.status, 201, await res.clone().text());
    const sent = epsCalls(stack).slice(before)[0]!;
    const url = (sent.eps_params as { name: string; value: string }[]).find(
      (p) => p.name === 'confirmation_return_url',
    )!.value;
    assert.equal(url, 'http://shop.test:8080/paid?x=%C3%A4#frag');
  });

  it('clean text of every script and emoji still goes through', async () => {
    const before = epsCalls(stack).length;
    const res = await stack.post(paymentA({ comment: 'Оплата — 東京 ✓ 😀 “quoted”' }));
    assert.equal(res.status, 201, await res.clone().text());
    assert.equal(epsCalls(stack).length, before + 1);
  });
});

describe('relay: a body that is not JSON is a 400 (issue 12.2)', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(() => stack.close());

  const withAmount = (amount: string) => JSON.stringify(paymentA()).replace('"amount":"1500.50"', `"amount":${amount}`);

  it('numbers JSON forbids are invalid_json, never paid', async () => {
    const before = epsCalls(stack).length;
    for (const amount of [
      '0015',
      '015.5',
      '00.50',
      '+1',
      '.5',
      '1.',
      '-',
      '1.e2',
      '01e2',
      '- 1',
      '0x10',
      '1_000',
      'Infinity',
      'NaN',
    ]) {
      const res = await stack.post(withAmount(amount));
      const body = (await res.json()) as { error: { code: string } };
      assert.equal(res.status, 400, `${amount}: ${JSON.stringify(body)}`);
      assert.equal(body.error.code, 'invalid_json', amount);
    }
    assert.equal(epsCalls(stack).length, before, 'nothing reached the billing');
  });

  it('valid JSON numbers are read exactly as written', async () => {
    const answers: Record<string, number> = {
      '15': 201,
      '15.5': 201,
      '0.5': 201,
      '15 ': 201,
      '1e2': 422,
      '1.001': 422,
      '-0': 422,
      '0': 422,
    };
    for (const [amount, status] of Object.entries(answers)) {
      const res = await stack.post(withAmount(amount));
      assert.equal(res.status, status, `${amount}: ${await res.text()}`);
    }
    const last = epsCalls(stack)
      .slice(-4)
      .map((b) => b.amount);
    assert.deepEqual(last, [15, 15.5, 0.5, 15]);
  });
});
