import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatMinorUnits } from '../../src/eps/amount.js';
import { AUTOPAY_A, SHOP, decide, errorMessage, payment, start, type Client } from './helpers.js';

describe('sandbox: hosted payment page', () => {
  let client: Client;
  before(async () => {
    client = await start();
  });
  after(() => client.close());

  const store = () => client.sandbox.store;
  const balance = (id = 1001) => store().agreements.get(id)!.balance;
  const methodsOf = (paymentId: number) =>
    [...store().paymentMethods.values()].filter(
      (m) => store().payments.get(paymentId)?.payment_method_id === m.payment_method_id,
    );

  it('shows the system, the amount, the agreement and whether the method is saved, with two plain form buttons and no script', async () => {
    const created = await client.pay(payment('A', AUTOPAY_A, { amount: 1500.5 }));
    const res = await fetch(created.confirmation_url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'; style-src 'self'/);
    const page = await res.text();
    assert.match(page, /<html lang="en">/);
    assert.match(page, /System A/);
    assert.match(page, /<dd>1500\.50<\/dd>/);
    assert.match(page, /<dd>AG-1001<\/dd>/);
    assert.match(page, /Saved, with autopayment connected/);
    assert.match(page, /<form method="post">/);
    assert.match(page, /<button type="submit" name="decision" value="pay">Pay 1500\.50<\/button>/);
    assert.match(page, /<button type="submit" name="decision" value="decline">Decline<\/button>/);
    assert.match(page, /<link rel="stylesheet" href="\/sandbox.css">/);
    assert.doesNotMatch(page, /<script|\sstyle=|\son[a-z]+=/i);

    const css = await fetch(`${client.sandbox.url}/sandbox.css`);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
    assert.match(await css.text(), /:focus-visible/);
  });

  it('A with autopayment: paying redirects 303 to the return URL, raises the balance exactly and saves the method', async () => {
    const start = balance();
    const created = await client.pay(payment('A', AUTOPAY_A, { amount: 1500.5 }));
    const res = await decide(created.confirmation_url, 'pay');
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `${SHOP}/back?payment_id=${created.payment_id}&status=succeeded`);
    assert.equal(balance() - start, 150050n);
    assert.equal(store().payments.get(created.payment_id)?.status, 'succeeded');
    const [method, ...more] = methodsOf(created.payment_id);
    assert.equal(more.length, 0);
    assert.deepEqual(
      { ...method, payment_method_id: 0, created_at: '' },
      {
        payment_method_id: 0,
        agreement_id: 1001,
        enable_auto_payments: true,
        status: 2,
        method: 'bank_card',
        title: 'Visa •••• 4242',
        system: 'A',
        created_at: '',
      },
    );
    assert.match(method!.created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('B with is_autopayment saves the method; B and C without it, and A without the flags, save none', async () => {
    const b = await client.pay(payment('B', { is_autopayment: true }));
    await decide(b.confirmation_url, 'pay');
    assert.equal(methodsOf(b.payment_id)[0]?.system, 'B');
    assert.equal(methodsOf(b.payment_id)[0]?.enable_auto_payments, true);

    const methodsBefore = store().paymentMethods.size;
    for (const body of [payment('B'), payment('C'), payment('A')]) {
      const created = await client.pay(body);
      assert.equal((await decide(created.confirmation_url, 'pay')).status, 303);
    }
    assert.equal(store().paymentMethods.size, methodsBefore);
  });

  it('C redirects to return_url; money adds up exactly over many payments', async () => {
    const start = balance(1002);
    const amounts = [0.1, 0.2, 0.3, 1500.5, 99999.99];
    for (const amount of amounts) {
      const created = await client.pay(payment('C', {}, { amount, agreement_param_value: 'AG-1002' }));
      const res = await decide(created.confirmation_url, 'pay');
      assert.equal(res.headers.get('location'), `${SHOP}/c-back?payment_id=${created.payment_id}&status=succeeded`);
    }
    assert.equal(balance(1002) - start, 10n + 20n + 30n + 150050n + 9999999n);
  });

  it('declining changes nothing and returns to the fail URL (B), or the success URL when there is none', async () => {
    const start = balance();
    const methods = store().paymentMethods.size;
    const withFail = await client.pay(payment('B', { is_autopayment: true, return_url_fail: `${SHOP}/fail?from=b` }));
    const res = await decide(withFail.confirmation_url, 'decline');
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `${SHOP}/fail?from=b&payment_id=${withFail.payment_id}&status=declined`);
    const withoutFail = await client.pay(payment('B', { is_autopayment: true }));
    assert.equal(
      (await decide(withoutFail.confirmation_url, 'decline')).headers.get('location'),
      `${SHOP}/ok?payment_id=${withoutFail.payment_id}&status=declined`,
    );
    const a = await client.pay(payment('A', AUTOPAY_A));
    assert.equal(
      (await decide(a.confirmation_url, 'decline')).headers.get('location'),
      `${SHOP}/back?payment_id=${a.payment_id}&status=declined`,
    );
    assert.equal(balance(), start);
    assert.equal(store().paymentMethods.size, methods);
    assert.equal(store().payments.get(a.payment_id)?.status, 'declined');
  });

  it('a payment is decided once: a second POST redirects to the same outcome and credits nothing more', async () => {
    const created = await client.pay(payment('A', AUTOPAY_A, { amount: 10 }));
    const start = balance();
    const first = await decide(created.confirmation_url, 'pay');
    const again = await decide(created.confirmation_url, 'pay');
    const flip = await decide(created.confirmation_url, 'decline');
    assert.equal(again.headers.get('location'), first.headers.get('location'));
    assert.equal(flip.headers.get('location'), first.headers.get('location'));
    assert.equal(balance() - start, 1000n);
    assert.equal(methodsOf(created.payment_id).length, 1);
    const page = await (await fetch(created.confirmation_url)).text();
    assert.match(page, /Payment succeeded/);
    assert.doesNotMatch(page, /<form/);
    assert.match(page, new RegExp(`href="${SHOP}/back\\?payment_id=${created.payment_id}&amp;status=succeeded"`));
  });

  it('a link-only payment (A with cancel_payment) saves the method without crediting the balance', async () => {
    const start = balance();
    const created = await client.pay(payment('A', { ...AUTOPAY_A, cancel_payment: true }, { amount: 1 }));
    const page = await (await fetch(created.confirmation_url)).text();
    assert.match(page, /test payment is then cancelled/);
    assert.equal((await decide(created.confirmation_url, 'pay')).status, 303);
    assert.equal(balance(), start);
    assert.equal(methodsOf(created.payment_id).length, 1);
    assert.equal(store().payments.get(created.payment_id)?.credited, false);
  });

  it('without a return URL (A with confirmation_type embedded) the outcome is shown instead of a redirect', async () => {
    const body = payment('A');
    body.eps_params = [{ name: 'confirmation_type', value: 'embedded' }];
    const created = await client.pay(body);
    const res = await decide(created.confirmation_url, 'pay');
    assert.equal(res.status, 200);
    assert.match(await res.text(), /Payment succeeded[\s\S]*no return address/);
  });

  it('refuses an unknown payment (404 page) and a missing decision (400) without deciding', async () => {
    const missing = await fetch(`${client.sandbox.url}/pay/999999`);
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /no payment with this number/);
    assert.equal((await decide(`${client.sandbox.url}/pay/abc`, 'pay')).status, 404);
    const created = await client.pay(payment('C'));
    const res = await decide(created.confirmation_url, 'maybe');
    assert.equal(res.status, 400);
    assert.match(await res.text(), /Choose Pay or Decline/);
    assert.equal(store().payments.get(created.payment_id)?.status, 'pending');
  });

  it("refuses a decision over 4 KB with a 413 page like every other refusal (HTML, under the pages' CSP), without deciding", async () => {
    const created = await client.pay(payment('C'));
    const res = await fetch(created.confirmation_url, {
      method: 'POST',
      body: new URLSearchParams({ decision: 'pay', note: 'x'.repeat(5000) }),
      redirect: 'manual',
    });
    assert.equal(res.status, 413);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.match(await res.text(), /the body is larger than 4 KB/);
    assert.equal(store().payments.get(created.payment_id)?.status, 'pending');
  });

  it('the client card lists agreements, balances, saved methods and payments, escaped, with no credentials', async () => {
    const created = await client.pay(
      payment('B', { is_autopayment: true }, { agreement_param_id: 7, agreement_param_value: 'client@example.com' }),
    );
    const user = await client.api('POST', '/users', {
      type: 1,
      organization: '<b>Acme & Co</b>',
      email: 'acme@example.com',
    });
    assert.equal(user.status, 201);
    await decide(created.confirmation_url, 'pay');
    const res = await fetch(`${client.sandbox.url}/`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const page = await res.text();
    assert.match(page, /Demo LLC/);
    assert.ok(
      page.includes(`Agreement AG-1001 (id 1001) · balance <span class="num">${formatMinorUnits(balance())}</span>`),
    );
    assert.match(
      page,
      /Visa •••• 4242[\s\S]*<span class="ok">active<\/span> <small[^>]*>code 2<\/small>[\s\S]*connected/,
    );
    assert.match(page, /email = client@example\.com/);
    assert.match(page, /Second Client LLC[\s\S]*AG-1002/);
    assert.doesNotMatch(page, /demo-secret|Basic |Bearer /);
    assert.ok(page.includes('&lt;b&gt;Acme &amp; Co&lt;/b&gt;'));
    assert.doesNotMatch(page, /<b>/);
  });
});

describe('sandbox: payment methods', () => {
  let client: Client;
  let ids: number[] = [];
  before(async () => {
    client = await start();
    // Three saved methods: A and B on agreement 1001, B on agreement 1002.
    for (const body of [
      payment('A', AUTOPAY_A),
      payment('B', { is_autopayment: true }),
      payment('B', { is_autopayment: true }, { agreement_param_value: 'AG-1002' }),
    ]) {
      const created = await client.pay(body);
      await decide(created.confirmation_url, 'pay');
    }
    ids = [...client.sandbox.store.paymentMethods.keys()];
    assert.equal(ids.length, 3);
  });
  after(() => client.close());

  const list = async (query: string) => {
    const answer = await client.api('GET', `/payment_methods${query}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.code, 200);
    const methods = (answer.body.response as { payment_methods: Array<Record<string, unknown>> }).payment_methods;
    return methods.map((m) => m.payment_method_id);
  };

  it('lists methods with their fields; status_list=2 selects the active ones', async () => {
    const answer = await client.api('GET', '/payment_methods?status_list=2');
    const [first] = (answer.body.response as { payment_methods: Array<Record<string, unknown>> }).payment_methods;
    assert.deepEqual(Object.keys(first!).sort(), [
      'agreement_id',
      'created_at',
      'enable_auto_payments',
      'method',
      'payment_method_id',
      'status',
      'system',
      'title',
    ]);
    assert.equal(first!.enable_auto_payments, true);
    assert.equal(first!.status, 2);
    assert.deepEqual(await list('?status_list=2'), ids);
    assert.deepEqual(await list(''), ids);
  });

  it('filters by agreement_id; an unknown agreement is 404 and a malformed one 400', async () => {
    assert.deepEqual(await list('?status_list=2&agreement_id=1001'), ids.slice(0, 2));
    assert.deepEqual(await list('?agreement_id=1002'), ids.slice(2));
    assert.deepEqual(await list('?agreement_id=1003'), []);
    assert.equal((await client.api('GET', '/payment_methods?agreement_id=4040')).status, 404);
    assert.equal((await client.api('GET', '/payment_methods?agreement_id=x')).status, 400);
  });

  it('DELETE disables a method and its autopayment; status_list then tells active from disabled', async () => {
    const [target] = ids;
    const answer = await client.api('DELETE', `/payment_methods/${target}`);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, {
      code: 200,
      response: { payment_method_id: target, status: 3, enable_auto_payments: false },
    });
    const stored = client.sandbox.store.paymentMethods.get(target!);
    assert.equal(stored?.status, 3);
    assert.equal(stored?.enable_auto_payments, false);

    const active = ids.slice(1);
    for (const query of [
      '?status_list=2',
      '?status_list[]=2',
      '?status_list=[2]',
      '?status_list=%5B2%5D',
      '?status_list%5B%5D=2',
    ]) {
      assert.deepEqual(await list(query), active, query);
    }
    for (const query of ['?status_list=3', '?status_list[]=3', '?status_list=[3]'])
      assert.deepEqual(await list(query), [target], query);
    for (const query of [
      '?status_list=2,3',
      '?status_list=2&status_list=3',
      '?status_list[]=2&status_list[]=3',
      '?status_list=[2,3]',
    ]) {
      assert.deepEqual(await list(query), ids, query);
    }
    // Deleting again is harmless.
    assert.equal((await client.api('DELETE', `/payment_methods/${target}`)).status, 200);
  });

  it('refuses a status_list that is not a list of integers', async () => {
    for (const query of [
      '?status_list=active',
      '?status_list=',
      '?status_list=[2',
      '?status_list=2.5',
      '?status_list=["2"]',
    ]) {
      const answer = await client.api('GET', `/payment_methods${query}`);
      assert.equal(answer.status, 400, query);
      assert.match(errorMessage(answer), /^status_list: /);
    }
  });

  it('DELETE of an unknown method is 404, of a malformed id 400', async () => {
    const unknown = await client.api('DELETE', '/payment_methods/9999');
    assert.equal(unknown.status, 404);
    assert.equal(errorMessage(unknown), 'payment method 9999 not found');
    assert.equal((await client.api('DELETE', '/payment_methods/abc')).status, 400);
  });
});
