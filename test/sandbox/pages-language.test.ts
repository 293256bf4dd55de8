/**
 * The sandbox's pages speak the client's language, over real HTTP: Russian when the address the client returns to
 * carries `lang=ru` or their browser asks for Russian first (`Accept-Language`), English otherwise.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Hono } from 'hono';
import { langOfAcceptLanguage, langOfAddress } from '../../src/sandbox/pages/language.js';
import { TEXTS } from '../../src/sandbox/pages/texts.js';
import { AUTOPAY_A, SHOP, params, payment, start, type Client } from './helpers.js';

const RUSSIAN = 'ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7';
const ENGLISH = 'en-US,en;q=0.9';
const NBSP = '\u00a0';

/** What a person reads on a page: its text without tags, scripts or attributes. */
const words = (page: string) => page.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');

describe('sandbox pages: the language of the client', () => {
  let client: Client;
  before(async () => {
    client = await start();
  });
  after(() => client.close());

  const get = (url: string, language?: string) =>
    fetch(url, { headers: language ? { 'accept-language': language } : {} });
  const decide = (url: string, decision: string, language?: string) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(language ? { 'accept-language': language } : {}),
      },
      body: new URLSearchParams({ decision }),
      redirect: 'manual',
    });

  it('a browser that asks for Russian gets the hosted payment page in Russian, amounts written the Russian way', async () => {
    const created = await client.pay(payment('A', AUTOPAY_A, { amount: 1500.5 }));
    const res = await get(created.confirmation_url, RUSSIAN);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('vary'), 'Accept-Language');
    const page = await res.text();
    assert.match(page, /<html lang="ru">/);
    assert.match(page, /<title>Система A: оплата 1\u00a0500,50<\/title>/);
    assert.match(page, new RegExp(`<h1 id="title">Система A · платёж № ${created.payment_id}</h1>`));
    assert.match(page, /<dt>Сумма<\/dt><dd>1\u00a0500,50<\/dd>/);
    assert.match(page, /<dt>Договор<\/dt><dd>AG-1001<\/dd>/);
    assert.match(page, /<dt>Способ оплаты<\/dt><dd>Сохраняется, автоплатёж подключается<\/dd>/);
    assert.match(page, /<legend>Тестовая карта песочницы<\/legend>/);
    assert.match(page, /value="pay">Оплатить 1\u00a0500,50<\/button>/);
    assert.match(page, /value="decline">Отклонить<\/button>/);
    assert.match(page, /Песочница биллинга/);
    assert.match(page, /Эта страница играет роль платёжной системы A/);
    // Nothing the client reads is left in English (the test cards' names are the same in every language).
    assert.doesNotMatch(words(page).replace(/(Visa|Mastercard|Mir) •••• \d+/g, ''), /[A-Za-z]{3,}/);
  });

  it('a browser that asks for English, for a language the pages do not speak, or for nothing gets English', async () => {
    const created = await client.pay(payment('A', AUTOPAY_A, { amount: 1500.5 }));
    for (const language of [ENGLISH, 'de-DE,de;q=0.9', '*', 'ru;q=0, en;q=0.1', undefined]) {
      const page = await (await get(created.confirmation_url, language)).text();
      assert.match(page, /<html lang="en">/, String(language));
      assert.match(page, /<dt>Amount<\/dt><dd>1500\.50<\/dd>/, String(language));
      assert.match(page, /value="pay">Pay 1500\.50<\/button>/, String(language));
    }
  });

  it("the language the return address carries wins over the browser's: the client chose it on the merchant's page", async () => {
    const russian = await client.pay(payment('B', { confirmation_return_url: `${SHOP}/ok?lang=ru` }, { amount: 10 }));
    const page = await (await get(russian.confirmation_url, ENGLISH)).text();
    assert.match(page, /<html lang="ru">/);
    assert.match(page, /<dt>Способ оплаты<\/dt><dd>Не сохраняется<\/dd>/);

    const english = await client.pay(payment('C', { return_url: `${SHOP}/c-back?lang=en` }, { amount: 10 }));
    assert.match(await (await get(english.confirmation_url, RUSSIAN)).text(), /<html lang="en">/);

    // A language the pages do not speak in the address leaves the choice to the browser.
    const german = await client.pay(payment('C', { return_url: `${SHOP}/c-back?lang=de` }, { amount: 10 }));
    assert.match(await (await get(german.confirmation_url, RUSSIAN)).text(), /<html lang="ru">/);
  });

  it('the outcome page, a test payment and the refusals of the hosted page speak Russian too', async () => {
    // Link only, with no return address (A, confirmation_type embedded): the outcome is shown.
    const body = payment('A', {}, { amount: 1 });
    body.eps_params = params({ confirmation_type: 'embedded', ...AUTOPAY_A, cancel_payment: true });
    const linkOnly = await client.pay(body);
    const form = await (await get(linkOnly.confirmation_url, RUSSIAN)).text();
    assert.match(form, /Сохраняется, автоплатёж подключается; этот тестовый платёж затем отменяется/);
    const outcome = await decide(linkOnly.confirmation_url, 'pay', RUSSIAN);
    assert.equal(outcome.status, 200);
    const shown = await outcome.text();
    assert.match(shown, /<html lang="ru">/);
    assert.match(shown, /<h1 id="title" class="ok">Платёж прошёл<\/h1>/);
    assert.match(shown, new RegExp(`Платёж № ${linkOnly.payment_id} на сумму 1,00 через систему A: прошёл\\.`));
    assert.match(shown, /В запросе платежа не было адреса возврата/);

    const declined = await client.pay(payment('B', { confirmation_return_url: `${SHOP}/ok?lang=ru` }, { amount: 10 }));
    const back = await decide(declined.confirmation_url, 'decline');
    assert.equal(back.headers.get('location'), `${SHOP}/ok?lang=ru&payment_id=${declined.payment_id}&status=declined`);
    const after = await (await get(declined.confirmation_url)).text();
    assert.match(after, /<h1 id="title" class="bad">Платёж отклонён<\/h1>/);
    assert.match(after, />Вернуться в магазин<\/a>/);

    const undecided = await client.pay(payment('C', { return_url: `${SHOP}/c-back?lang=ru` }));
    const refused = await decide(undecided.confirmation_url, 'maybe');
    assert.equal(refused.status, 400);
    const refusal = await refused.text();
    assert.match(refusal, /<html lang="ru">/);
    assert.match(refusal, /<h1 id="title">Запрос отклонён<\/h1><p>Выберите «Оплатить» или «Отклонить»\.<\/p>/);

    const missing = await get(`${client.sandbox.url}/pay/999999`, RUSSIAN);
    assert.equal(missing.status, 404);
    assert.match(
      await missing.text(),
      /<html lang="ru">[\s\S]*Страница не найдена[\s\S]*Платежа с таким номером нет\./,
    );
    const nowhere = await get(`${client.sandbox.url}/no/such/page`, RUSSIAN);
    assert.match(await nowhere.text(), /<html lang="ru">[\s\S]*По этому адресу страницы нет\./);
  });

  it("the client card and the home page follow the browser's language; the sandbox's clock controls stay English, marked so", async () => {
    const card = await (await get(`${client.sandbox.url}/agreements/1001`, RUSSIAN)).text();
    assert.match(card, /<html lang="ru">/);
    assert.match(card, /<title>Карточка клиента: Договор AG-1001<\/title>/);
    assert.match(card, /<h1>Карточка клиента · Договор AG-1001<\/h1>/);
    assert.match(card, /<nav><a href="\/">Все клиенты<\/a><\/nav>/);
    assert.match(card, /<dt>Клиент<\/dt><dd>Demo LLC \(id клиента 1\)<\/dd>/);
    assert.match(card, /<dt>Баланс<\/dt><dd class="num" id="balance">-?[\d\u00a0]+,\d\d<\/dd>/);
    assert.match(card, /<dt>Рекомендуемый платёж<\/dt>/);
    assert.match(card, /<dt>Автоплатёж<\/dt><dd><span class="(ok|muted)">(подключён|не подключён)/);
    assert.match(card, /<h2 id="subscriptions">Подписки<\/h2>/);
    assert.match(card, /<th scope="col">Действует с<\/th>/);
    assert.match(card, /<div lang="en"><section class="card clock"/);

    const home = await (await get(`${client.sandbox.url}/`, RUSSIAN)).text();
    assert.match(home, /<html lang="ru">/);
    assert.match(home, /<h1>Клиенты и их договоры<\/h1>/);
    assert.match(home, />Открыть карточку клиента: AG-1001<\/a>/);

    const english = await (await get(`${client.sandbox.url}/agreements/1001`, ENGLISH)).text();
    assert.match(english, /<html lang="en">/);
    assert.match(english, /<h1>Client card · Agreement AG-1001<\/h1>/);
    assert.doesNotMatch(english, /<div lang="en">/);
  });
});

describe('sandbox pages: choosing the language', () => {
  it('takes the most wanted language of Accept-Language that the pages speak', async () => {
    const cases: Array<[string | undefined, string | undefined]> = [
      ['ru', 'ru'],
      ['RU-ru', 'ru'],
      [RUSSIAN, 'ru'],
      ['de-DE, ru;q=0.5, en;q=0.4', 'ru'],
      ['en;q=0.5, ru;q=0.8', 'ru'],
      ['ru;q=0.8, en;q=0.8', 'ru'],
      ['ru;q=0, en', 'en'],
      ['de, fr', undefined],
      ['*', undefined],
      ['', undefined],
      [undefined, undefined],
    ];
    // Through a request, as the pages read it.
    const app = new Hono().get('/', (c) => c.text(langOfAcceptLanguage(c) ?? 'none'));
    for (const [header, lang] of cases) {
      const answer = await app.request('/', { headers: header === undefined ? {} : { 'accept-language': header } });
      assert.equal(await answer.text(), lang ?? 'none', String(header));
    }
  });

  it("takes the return address's lang when the pages speak it", () => {
    assert.equal(langOfAddress('https://shop.example/pay?lang=ru'), 'ru');
    assert.equal(langOfAddress('https://shop.example/pay?lang=ru-RU#top'), 'ru');
    assert.equal(langOfAddress('https://shop.example/pay?lang=de'), undefined);
    assert.equal(langOfAddress('https://shop.example/ru/pay'), undefined);
    assert.equal(langOfAddress('not a url'), undefined);
    assert.equal(langOfAddress(undefined), undefined);
  });

  it('writes amounts as the widget does: Russian groups with a no-break space and a decimal comma', () => {
    assert.equal(TEXTS.ru.money(150050n), `1${NBSP}500,50`);
    assert.equal(TEXTS.ru.money(-64000n), '-640,00');
    assert.equal(TEXTS.ru.money(99999999999n), `999${NBSP}999${NBSP}999,99`);
    assert.equal(TEXTS.en.money(150050n), '1500.50');
    assert.deepEqual([1, 2, 5, 21].map(TEXTS.ru.days), ['1 день', '2 дня', '5 дней', '21 день']);
  });

  it('every text is written in Russian, not left in English', () => {
    const leaves = (node: unknown, path: string): Array<[string, string]> =>
      typeof node === 'string'
        ? [[path, node]]
        : node && typeof node === 'object'
          ? Object.entries(node).flatMap(([key, value]) => leaves(value, `${path}.${key}`))
          : [];
    const english = new Map(leaves(TEXTS.en, ''));
    const same = leaves(TEXTS.ru, '').filter(([path, text]) => english.get(path) === text && text !== 'Id');
    assert.deepEqual(same, []);
  });
});
