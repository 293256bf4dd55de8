import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSandboxState } from '../../src/sandbox/state.js';
import { agreementPage } from '../../src/sandbox/pages/card-pages.js';
import { spanText } from '../../src/sandbox/pages/clock-panel.js';
import { TEXTS } from '../../src/sandbox/pages/texts.js';
import {
  AUTOPAY_A,
  INTERNET,
  SHOP,
  T0,
  decide,
  moveClock,
  newAgreement,
  payment,
  saveMethod,
  startFrozen,
  subscribe,
  topUp,
  type Client,
} from './helpers.js';

async function card(client: Client, agreementId: number | string): Promise<string> {
  const res = await fetch(`${client.sandbox.url}/agreements/${agreementId}`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
  assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'; style-src 'self'/);
  const page = await res.text();
  assert.doesNotMatch(page, /<script|\sstyle=|\son[a-z]+=/i, 'no script, no inline style: the strict CSP holds');
  return page;
}

/** The text of the table row that contains `needle` (tags removed, spaces squeezed). */
function row(page: string, needle: string): string {
  const rows = page
    .split('<tr>')
    .slice(1)
    .map((r) =>
      r
        .split('</tr>')[0]!
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  const found = rows.find((r) => r.includes(needle));
  assert.ok(found, `a row with "${needle}"`);
  return found;
}

const value = (page: string, id: string) => new RegExp(`id="${id}">([^<]*)<`).exec(page)?.[1];

/** The status message a page shows after a move of the clock made with its forms, tags removed; undefined without one. */
function jumpMessage(page: string): string | undefined {
  const section = /<section class="card notice" role="status" aria-labelledby="jump">([\s\S]*?)<\/section>/.exec(
    page,
  )?.[1];
  return section
    ?.replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Submits a clock form of the pages as the browser does; the page the redirect leads to, and its address. */
async function moveWithForm(
  client: Client,
  fields: Record<string, string>,
): Promise<{ location: string; page: string }> {
  const res = await fetch(`${client.sandbox.url}/clock`, {
    method: 'POST',
    headers: { authorization: client.basic },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
  assert.equal(res.status, 303);
  const location = res.headers.get('location') ?? '';
  const page = await fetch(`${client.sandbox.url}${location}`);
  assert.equal(page.status, 200);
  return { location, page: await page.text() };
}

async function onCard(body: (client: Client) => Promise<void>): Promise<void> {
  const client = await startFrozen(T0);
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

describe('sandbox client card', () => {
  it('AG-1001: client, balance, recommended payment, the subscription with its versions, charges and payments, the clock', () =>
    onCard(async (client) => {
      const page = await card(client, 1001);
      assert.match(page, /<h1>Client card · Agreement AG-1001<\/h1>/);
      assert.match(page, /<dt>Client<\/dt><dd>Demo LLC \(client id 1\)<\/dd>/);
      assert.match(page, /<dd>Ivan Petrov, client@example\.com<\/dd>/);
      assert.match(page, /AG-1001 \(id 1001\), concluded 2024-01-15/);
      assert.equal(value(page, 'balance'), '0.00');
      assert.equal(value(page, 'recommended'), '1140.00');
      assert.match(page, /Autopayment<\/dt><dd><span class="muted">not connected/);

      assert.match(page, /<h3>Subscription 1 · Office internet<\/h3>/);
      assert.equal(value(page, 'state-1'), 'active');
      assert.match(page, /active<\/span> since 2026-03-01 00:00:00/);
      assert.match(page, /Current period<\/dt><dd>2026-04-01 – 2026-05-01/);
      assert.match(page, /Next period<\/dt><dd>2026-05-01 00:00:00, costs <span class="num">1140\.00/);
      // The seeded subscription was entered when its history begins, not when the sandbox started.
      assert.equal(
        row(page, 'Internet 100 Mbit/s ×'),
        '1 (in force) 2026-03-01 00:00:00 Business Internet 1 month Internet 100 Mbit/s × 1 at 990.00; Static IP address × 1 at 150.00 1140.00 created 2026-03-01 00:00:00',
      );
      assert.match(page, /<th scope="col">Recorded<\/th>/);
      assert.doesNotMatch(page, /Changed on|back-dated/);

      assert.equal(
        row(page, '2026-03-01 – 2026-04-01'),
        '2026-03-01 00:00:00 1 Subscription 1 (Office internet): 2026-03-01 – 2026-04-01 (first period) 1 -1140.00 1140.00',
      );
      assert.equal(
        row(page, '2026-04-01 – 2026-05-01'),
        '2026-04-01 00:00:00 1 Subscription 1 (Office internet): 2026-04-01 – 2026-05-01 (period) 1 -1140.00 0.00',
      );
      assert.equal(row(page, 'Bank transfer'), '2026-03-01 00:00:00 Bank transfer (seed data) — — 2280.00 credited');
      assert.match(page, /No saved payment methods\./);

      assert.match(page, /<time datetime="2026-04-10T09:00:00.000Z" id="sandbox-time">2026-04-10 09:00:00 UTC<\/time>/);
      assert.match(
        page,
        /<form method="post" action="\/clock" class="inline"[^>]*>\s*<input type="hidden" name="return_to" value="\/agreements\/1001">/,
      );
      assert.match(page, /<button type="submit" name="advance" value="P1D">\+1 day<\/button>/);
      assert.equal(value(page, 'clock-state'), 'stands still until moved');
      // "Move to" shows and takes the 24-hour UTC time of the rest of the page, whatever the browser's locale.
      const field =
        /<label for="clock-to">Move to \(UTC\)<\/label>\s*<input id="clock-to" name="to" type="text" required [^>]*>/.exec(
          page,
        )?.[0];
      assert.ok(field, 'a labelled text field');
      assert.match(field, / value="2026-04-10 09:00:00">$/);
      assert.match(field, / aria-describedby="clock-to-hint"/);
      assert.match(page, /<span class="note" id="clock-to-hint">24-hour UTC, YYYY-MM-DD HH:MM:SS/);
      assert.doesNotMatch(page, /datetime-local/);
      const pattern = new RegExp(`^(?:${/ pattern="([^"]+)"/.exec(field)![1]!})$`, 'v'); // as browsers compile it
      for (const good of [
        '2026-04-10 09:00:00',
        '2026-04-30',
        '2026-04-30T00:00',
        '2026-04-30T00:00:00.000Z',
        '2026-04-30 00:00:00+03:00',
      ])
        assert.match(good, pattern, good);
      for (const bad of ['04/30/2026, 12:00:00 AM', '2026-4-30', '2026-04-30 9:00'])
        assert.doesNotMatch(bad, pattern, bad);
      assert.match(
        page,
        /<input type="hidden" name="to" value="2026-04-30T00:00:00.000Z"><button type="submit">Move to 2026-04-30 00:00:00: 1 day before the next period/,
      );
      assert.doesNotMatch(page, /demo-secret|Bearer /);
    }));

  it('shows waiting, blocked and changed subscriptions as they are', () =>
    onCard(async (client) => {
      const waiting = await card(client, 1003);
      assert.match(waiting, /<h1>Client card · Offer agreement 1003<\/h1>/);
      assert.match(waiting, /<dd>id 1003, no number, an offer agreement, concluded 2024-03-01<\/dd>/);
      assert.equal(value(waiting, 'state-2'), 'awaiting activation');
      // The quarter April–June from 1 April: 61 of 91 days of 900.00 would have been 603.30; from now, less.
      assert.match(waiting, /To activate now<\/dt><dd class="num">[\d.]+ \(the rest of the current period\)/);
      assert.match(waiting, /Cloud Backup<\/td><td>3 months<\/td>/);

      await client.api('PATCH', '/subscriptions/1', {
        change_start_date: '2026-05-15 00:00:00',
        services: [{ ...INTERNET, modifier: { new_price: 1300 } }],
      });
      client.sandbox.advance('2026-05-20T00:00:00Z');
      const blocked = await card(client, 1001);
      assert.equal(value(blocked, 'state-1'), 'financial blocking');
      assert.match(blocked, /financial blocking<\/span> since 2026-05-01 00:00:00/);
      assert.match(
        row(blocked, 'new price'),
        /^2 \(in force\) 2026-05-15 00:00:00 Business Internet 1 month Internet 100 Mbit\/s × 1 at 1300\.00 \(new price\) 1300\.00 changed 2026-04-10 09:00:00$/,
      );
      assert.doesNotMatch(row(blocked, 'Static IP address × 1 at 150.00 1140.00'), /in force/);
      assert.match(blocked, /To unblock now<\/dt><dd class="num">503\.23 /, '12 of 31 days of May at 1300.00');
    }));

  it('the home page links every agreement to its card; an unknown agreement is a 404 page', async () => {
    await onCard(async (client) => {
      const home = await (await fetch(`${client.sandbox.url}/`)).text();
      assert.match(
        home,
        /Agreement AG-1001 \(id 1001\) · balance <span class="num">0\.00<\/span><\/h3>\s*<p>Recommended payment <span class="num">1140\.00<\/span> · <a href="\/agreements\/1001">/,
      );
      assert.match(home, /href="\/agreements\/1003"/);
      assert.match(home, /action="\/clock"/);
      for (const path of ['/agreements/4040', '/agreements/abc', '/agreements/0']) {
        const res = await fetch(`${client.sandbox.url}${path}`);
        assert.equal(res.status, 404, path);
        assert.match(await res.text(), /There is no agreement with this id/);
      }
    });
  });

  it('"Disable autopayment" disables the method and its autopayment, then comes back to the card', () =>
    onCard(async (client) => {
      const method = await saveMethod(client, 1001);
      const foreign = await saveMethod(client, 1002);
      let page = await card(client, 1001);
      assert.match(
        page,
        new RegExp(
          `Autopayment</dt><dd><span class="ok">connected</span>: method ${method}, Visa •••• 4242 \\(system A\\)`,
        ),
      );
      const action = `/agreements/1001/payment-methods/${method}/disable`;
      assert.ok(
        page.includes(
          `<form method="post" action="${action}" class="row"><button type="submit">Disable autopayment</button></form>`,
        ),
      );
      // The status in words; its API code (status_list) small beside it.
      assert.equal(
        row(page, 'Visa •••• 4242 (bank_card)'),
        `${method} Visa •••• 4242 (bank_card) A active code 2 connected 2026-04-10 09:00:00 — Disable autopayment`,
      );
      assert.match(
        page,
        /<td><span class="ok">active<\/span> <small class="muted" title="[^"]*status_list[^"]*">code 2<\/small><\/td>/,
      );
      assert.doesNotMatch(page, /active \(2\)|Autopayment disabled/);

      client.sandbox.advance('P1D');

      const res = await fetch(`${client.sandbox.url}${action}`, {
        method: 'POST',
        headers: { authorization: client.basic },
        redirect: 'manual',
      });
      assert.equal(res.status, 303);
      assert.equal(res.headers.get('location'), '/agreements/1001');
      const stored = client.sandbox.store.paymentMethods.get(method)!;
      assert.deepEqual([stored.status, stored.enable_auto_payments], [3, false]);
      page = await card(client, 1001);
      // When it was disabled: in the methods table and in the payment history.
      assert.equal(
        row(page, 'Visa •••• 4242 (bank_card)'),
        `${method} Visa •••• 4242 (bank_card) A disabled code 3 off 2026-04-10 09:00:00 2026-04-11 09:00:00 —`,
      );
      assert.match(page, /<th scope="col">Disabled<\/th>/);
      assert.equal(
        row(page, 'Autopayment disabled'),
        `2026-04-11 09:00:00 Autopayment disabled — method ${method}, Visa •••• 4242 (system A) — method disabled`,
      );
      assert.doesNotMatch(page, /Disable autopayment<\/button>/);
      assert.match(page, /Autopayment<\/dt><dd><span class="muted">not connected/);
      client.sandbox.advance('PT1H');
      assert.equal(
        (
          await fetch(`${client.sandbox.url}${action}`, {
            method: 'POST',
            headers: { authorization: client.basic },
            redirect: 'manual',
          })
        ).status,
        303,
        'again: harmless',
      );
      assert.match(
        row(await card(client, 1001), 'Visa •••• 4242 (bank_card)'),
        / 2026-04-11 09:00:00 —$/,
        'and keeps the first date',
      );
      const home = await (await fetch(`${client.sandbox.url}/`)).text();
      assert.equal(
        row(home, 'Visa •••• 4242 (bank_card)'),
        `${method} Visa •••• 4242 (bank_card) A disabled code 3 off 2026-04-10 09:00:00 2026-04-11 09:00:00`,
      );

      const other = await fetch(`${client.sandbox.url}/agreements/1001/payment-methods/${foreign}/disable`, {
        method: 'POST',
        headers: { authorization: client.basic },
        redirect: 'manual',
      });
      assert.equal(other.status, 404, 'a method of another agreement');
      assert.equal(client.sandbox.store.paymentMethods.get(foreign)!.enable_auto_payments, true);

      // DELETE /payment_methods dates it too; the API's record keeps the spec's fields only.
      assert.equal((await client.api('DELETE', `/payment_methods/${foreign}`)).status, 200);
      assert.equal(
        row(await card(client, 1002), 'Visa •••• 4242 (bank_card)'),
        `${foreign} Visa •••• 4242 (bank_card) A disabled code 3 off 2026-04-10 09:00:00 2026-04-11 10:00:00 —`,
      );
      const listed = (await client.api('GET', '/payment_methods?agreement_id=1002')).body.response as {
        payment_methods: object[];
      };
      assert.deepEqual(Object.keys(listed.payment_methods[0]!).sort(), [
        'agreement_id',
        'created_at',
        'enable_auto_payments',
        'method',
        'payment_method_id',
        'status',
        'system',
        'title',
      ]);

      client.sandbox.advance('2026-05-02T00:00:00Z');
      assert.equal(client.sandbox.store.autopaymentsOf(1001).length, 0, 'and is never charged');
    }));

  it('end to end: pay with A saving the method, move the clock to a day before the next period, see the autopayment on the card', () =>
    onCard(async (client) => {
      // The client pays 500.00 with A and saves the card, on the payment system's page.
      const created = await client.pay(payment('A', AUTOPAY_A, { amount: 500 }));
      const hosted = await (await fetch(created.confirmation_url)).text();
      assert.match(hosted, /Saved, with autopayment connected/);
      const paid = await decide(created.confirmation_url, 'pay');
      assert.equal(paid.headers.get('location'), `${SHOP}/back?payment_id=${created.payment_id}&status=succeeded`);

      let page = await card(client, 1001);
      assert.equal(value(page, 'balance'), '500.00');
      assert.equal(value(page, 'recommended'), '640.00');
      assert.match(
        row(page, `Payment no. ${created.payment_id} through system A`),
        /saved as method 1 500\.00 succeeded$/,
      );

      // The developer presses the card's "a day before the next period" button.
      const shortcut =
        /<input type="hidden" name="to" value="([^"]+)"><button type="submit">Move to [^<]*1 day before the next period/.exec(
          page,
        );
      assert.ok(shortcut, 'the card offers the move');
      const moved = await fetch(`${client.sandbox.url}/clock`, {
        method: 'POST',
        headers: { authorization: client.basic },
        body: new URLSearchParams({ return_to: '/agreements/1001', to: shortcut[1]! }),
        redirect: 'manual',
      });
      assert.equal(moved.status, 303);
      const back = moved.headers.get('location') ?? '';
      assert.match(back, /^\/agreements\/1001\?jump=\d+$/);

      // Back on the card, a status message says what the move did.
      page = await card(client, back.slice('/agreements/'.length));
      assert.equal(
        jumpMessage(page),
        'The clock moved 19 days 15 hours forward From 2026-04-10 09:00:00 to 2026-04-30 00:00:00 UTC. What happened on the way for AG-1001: 1 autopayment (640.00). ' +
          '2026-04-30 00:00:00 Autopayment no. 1 (before a new period): 640.00 by method 1 (Visa •••• 4242)',
      );
      assert.match(
        page,
        /<li><time class="when" datetime="2026-04-30T00:00:00Z">2026-04-30 00:00:00<\/time> <span class="ok">Autopayment no\. 1 /,
      );
      assert.ok(
        page.indexOf('role="status"') < page.indexOf('<h2 id="clock">'),
        'above the clock, first thing under the heading',
      );
      assert.equal(
        value(page, 'clock-state'),
        'moved 19 days 15 hours forward so far; it stands still until moved again',
      );
      assert.match(page, /2026-04-30 00:00:00 UTC<\/time>/);
      assert.match(page, /id="clock-to"[^>]* value="2026-04-30 00:00:00">/);
      assert.equal(jumpMessage(await card(client, 1001)), undefined, 'the card itself has no message');
      for (const jump of ['99', 'abc', '0'])
        assert.equal(jumpMessage(await card(client, `1001?jump=${jump}`)), undefined, jump);
      page = await card(client, 1001);
      assert.equal(
        row(page, 'Autopayment no. 1'),
        '2026-04-30 00:00:00 Autopayment no. 1 before a new period method 1, Visa •••• 4242 (system A) 640.00 succeeded',
      );
      assert.equal(value(page, 'balance'), '1140.00');
      assert.equal(value(page, 'recommended'), '0.00');
    }));

  it('after a move with the forms: what happened, here and on other agreements, escaped; nothing when nothing happened', () =>
    onCard(async (client) => {
      const quiet = await moveWithForm(client, { advance: 'PT1H', return_to: '/agreements/1001' });
      assert.equal(
        jumpMessage(quiet.page),
        'The clock moved 1 hour forward From 2026-04-10 09:00:00 to 2026-04-10 10:00:00 UTC. Nothing happened on the way for AG-1001: no charge, autopayment or blocking fell in this time.',
      );

      const fancy = await newAgreement(client, 'Fancy LLC');
      await subscribe(client, fancy, {
        description: '<b>Fancy</b> & "quoted"',
        subscription_start_date: '2026-04-20 00:00:00',
      });
      const other = await moveWithForm(client, { to: '2026-05-01 00:00:00', return_to: '/agreements/1002' });
      const number = /\?jump=(\d+)$/.exec(other.location)![1];
      assert.match(other.page, /role="status"/);
      assert.equal(
        jumpMessage(other.page),
        'The clock moved 20 days 14 hours forward From 2026-04-10 10:00:00 to 2026-05-01 00:00:00 UTC. Nothing happened on the way for AG-1002: no charge, autopayment or blocking fell in this time. ' +
          'And 3 events on other agreements: see every event of this move .',
      );
      assert.ok(other.page.includes(`<a href="/?jump=${number}">see every event of this move</a>`));

      const home = await (await fetch(`${client.sandbox.url}/?jump=${number}`)).text();
      const message = jumpMessage(home)!;
      assert.match(
        message,
        /What happened on the way: 1 financial blocking, 1 subscription awaiting activation and 1 period not charged\. /,
      );
      assert.match(
        message,
        /2026-04-20 00:00:00 offer agreement 1004: Subscription 3 \(&lt;b&gt;Fancy&lt;\/b&gt; &amp; &quot;quoted&quot;\): started without the funds/,
        'every agreement, named',
      );
      assert.match(
        message,
        /2026-05-01 00:00:00 AG-1001: Subscription 1 \(Office internet\): the balance does not cover the period 2026-05-01 – 2026-06-01 \(1140\.00\): financial blocking 2026-05-01 00:00:00 offer agreement 1004: Subscription 3 .*: period 2026-05-01 – 2026-06-01 not charged: awaiting activation$/,
      );
      assert.ok(
        home.includes(
          '<span class="bad">offer agreement 1004: Subscription 3 (&lt;b&gt;Fancy&lt;/b&gt; &amp; &quot;quoted&quot;)',
        ),
        'escaped',
      );
      assert.doesNotMatch(home, /<b>Fancy/);
      assert.match(
        home,
        /<section class="card notice" role="status" aria-labelledby="jump">\s*<h2 id="jump">The clock moved 20 days 14 hours forward<\/h2>/,
      );
    }));

  it('versions say when they were entered: created, changed, or back-dated when entered after they took effect', () =>
    onCard(async (client) => {
      const agreement = await newAgreement(client);
      const id = await subscribe(client, agreement, { subscription_start_date: '2026-04-01 00:00:00' });
      await client.api('PATCH', `/subscriptions/${id}`, {
        change_start_date: '2026-05-01 00:00:00',
        services: [{ ...INTERNET, modifier: { new_price: 1000 } }],
      });
      const page = await card(client, agreement);
      assert.match(
        row(page, 'Static IP address × 1 at 150.00'),
        /^1 \(in force\) 2026-04-01 00:00:00 .* created 2026-04-10 09:00:00 \(back-dated\)$/,
      );
      assert.match(row(page, 'new price'), /^2 2026-05-01 00:00:00 .* changed 2026-04-10 09:00:00$/);
      assert.match(
        page,
        /<small class="muted" title="entered after the date it is in force from[^"]*">\(back-dated\)<\/small>/,
      );
    }));

  it('a running clock says whether it was moved, and how far', async () => {
    const state = createSandboxState({ clock: { start: T0 } });
    const clockState = async () =>
      value(String(await agreementPage(state, TEXTS.en, state.store.agreements.get(1001)!)), 'clock-state');
    assert.equal(await clockState(), 'runs with real time');
    state.scheduler.advance('P1D');
    state.scheduler.advance('PT2H30M');
    assert.equal(
      await clockState(),
      'moved 1 day 2 hours 30 minutes forward so far; it runs on with real time from the moved time',
    );
    assert.deepEqual(
      [spanText(0), spanText(61_000), spanText(90_061_000), spanText(3 * 86_400_000 + 5_000)],
      ['less than a second', '1 minute 1 second', '1 day 1 hour 1 minute', '3 days 5 seconds'],
    );
  });
});

describe("sandbox pages: the clock's state and the seed, with the control API's operations", () => {
  it("a form is accepted from the sandbox's own origin: its public URL when configured (a proxy in front may rewrite Host), else the one the request was sent to", async () => {
    const freeze = (client: Client, origin: string) =>
      fetch(`${client.sandbox.url}/clock/freeze`, {
        method: 'POST',
        headers: { authorization: client.basic, origin },
        redirect: 'manual',
      });
    const direct = await startFrozen();
    const proxied = await startFrozen(T0, { publicUrl: 'https://sandbox.example/' });
    try {
      assert.equal((await freeze(direct, direct.sandbox.url)).status, 303);
      assert.equal(
        (await freeze(direct, `https://${new URL(direct.sandbox.url).host}`)).status,
        403,
        'same host, another scheme',
      );
      // Behind a proxy the browser sends the public origin, while Host says where the sandbox listens.
      assert.equal((await freeze(proxied, 'https://sandbox.example')).status, 303);
      assert.equal(
        (await freeze(proxied, proxied.sandbox.url)).status,
        403,
        'the listening address is not the public one',
      );
      assert.equal((await freeze(proxied, 'https://evil.example')).status, 403);
    } finally {
      await Promise.all([direct.close(), proxied.close()]);
    }
  });

  it('a page on another site cannot use the credentials a browser holds, on the forms or the control API: Sec-Fetch-Site decides, else Origin (`null` is refused); curl sends neither', async () => {
    const client = await startFrozen(T0, { publicUrl: 'http://localhost:1/' });
    const post = (path: string, headers: Record<string, string>) =>
      fetch(`${client.sandbox.url}${path}`, {
        method: 'POST',
        headers: { authorization: client.basic, ...headers },
        redirect: 'manual',
      }).then((answer) => answer.status);
    try {
      assert.equal(await post('/clock/freeze', { 'sec-fetch-site': 'cross-site' }), 403);
      assert.equal(await post('/clock/freeze', { 'sec-fetch-site': 'same-site' }), 403);
      assert.equal(await post('/clock/freeze', { origin: 'null' }), 403, 'a sandboxed frame, or a no-referrer page');
      assert.equal(
        await post('/clock/freeze', { 'sec-fetch-site': 'same-origin', origin: 'null' }),
        303,
        "the sandbox's own page, whatever its address (here not the public URL)",
      );
      assert.equal(await post('/sandbox/reset', { origin: 'https://evil.example' }), 403);
      assert.equal(await post('/sandbox/reset', { 'sec-fetch-site': 'cross-site' }), 403);
      assert.equal(await post('/sandbox/reset', {}), 200, 'curl, a script: no page');
      const page = await fetch(`${client.sandbox.url}/agreements/1001`);
      assert.equal(page.headers.get('referrer-policy'), 'same-origin', "the pages' own posts carry their Origin");
    } finally {
      await client.close();
    }
  });

  it('"Stop the clock", "Let the clock run" and "Reset to the seed data" post with the credentials and come back', async () => {
    const client = await startFrozen();
    try {
      const post = (path: string, authorization?: string) =>
        fetch(`${client.sandbox.url}${path}`, {
          method: 'POST',
          headers: authorization ? { authorization } : {},
          body: new URLSearchParams({ return_to: '/agreements/1001' }),
          redirect: 'manual',
        });
      const clock = async () => (await client.control('GET', '/clock')).body as { now: string; frozen: boolean };
      assert.match(
        await (await fetch(`${client.sandbox.url}/agreements/1001`)).text(),
        /<form method="post" action="\/clock\/unfreeze" class="inline">.*Let the clock run with real time/,
      );
      assert.equal((await post('/clock/unfreeze')).status, 401, 'no credentials, no change');
      const foreign = await fetch(`${client.sandbox.url}/clock/unfreeze`, {
        method: 'POST',
        headers: { authorization: client.basic, origin: 'https://evil.example' },
        redirect: 'manual',
      });
      assert.equal(foreign.status, 403, 'a form posted from another site, even with the credentials the browser holds');
      assert.equal((await clock()).frozen, true);
      const unfrozen = await post('/clock/unfreeze', client.basic);
      assert.deepEqual([unfrozen.status, unfrozen.headers.get('location')], [303, '/agreements/1001']);
      assert.equal((await clock()).frozen, false);
      assert.match(
        await (await fetch(`${client.sandbox.url}/agreements/1001`)).text(),
        /action="\/clock\/freeze" class="inline">.*Stop the clock/,
      );
      assert.equal((await post('/clock/freeze', client.basic)).status, 303);
      assert.equal((await clock()).frozen, true);

      await topUp(client, 1001, 500);
      await moveClock(client, { advance: 'P40D' });
      assert.equal((await post('/reset', client.basic)).status, 303);
      assert.equal((await clock()).now, '2026-04-10T09:00:00.000Z');
      const report = (await client.control('GET', '/agreements/1001')).body as { balance: string; payments: unknown[] };
      assert.deepEqual([report.balance, report.payments], ['0.00', []]);
    } finally {
      await client.close();
    }
  });
});
