/**
 * `<billing-pay session>`: a logged-in client's agreement comes from the merchant-signed session (`GET /session`) and
 * is sent with lookup kind 11; the client types only the amount.
 */
import { expect, html, oneEvent } from '@open-wc/testing';
import sinon from 'sinon';
import { BillingPay } from '../../src/widget/billing-pay.js';
import {
  CONFIG,
  control,
  created,
  forgetAttempts,
  json,
  labels,
  mount,
  pay,
  type,
  type SentRequest,
  stubNavigate,
} from './helpers.js';

const RELAY = 'http://relay.test';
const SESSION = 'eyJhbGciOiJIUzI1NiJ9.eyJhZ3IiOjEwMDF9.c2lnbmF0dXJl';

describe('<billing-pay session>', () => {
  let requests: SentRequest[];
  let fetchStub: sinon.SinonStub;
  let navigate: sinon.SinonStub;
  let session: () => Response;

  beforeEach(() => {
    requests = [];
    session = () => json({ agreement_id: 1001 });
    fetchStub = sinon.stub(window, 'fetch').callsFake(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      const request: SentRequest = {
        url,
        method: init.method ?? 'GET',
        headers: new Headers(init.headers),
        body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
        signal: init.signal ?? undefined,
      };
      requests.push(request);
      if (url === `${RELAY}/config`) return json(CONFIG);
      if (url === `${RELAY}/session`) return session();
      if (url === `${RELAY}/payments`) return created();
      return json({ error: { code: 'not_found', message: 'There is nothing at this address.' } }, 404);
    });
    navigate = stubNavigate();
  });

  afterEach(() => {
    fetchStub.restore();
    navigate.restore();
    forgetAttempts();
  });

  async function send(el: BillingPay): Promise<Record<string, unknown>> {
    const redirect = oneEvent(el, 'billing-pay-redirect');
    await pay(el);
    await redirect;
    const posts = requests.filter((r) => r.url.endsWith('/payments'));
    expect(posts).to.have.length(1);
    return posts[0]!.body as Record<string, unknown>;
  }

  it('prefills the agreement from /session with kind 11 and asks only for the amount', async () => {
    const el = await mount(html`<billing-pay relay=${RELAY} session=${SESSION} lang="en" lookup="5 7"></billing-pay>`);
    const asked = requests.find((r) => r.url === `${RELAY}/session`);
    expect(asked !== undefined, 'GET /session').to.be.true;
    expect(asked!.headers.get('authorization')).to.equal(`Bearer ${SESSION}`);

    expect(labels(el)).to.not.include('Agreement number');
    expect(control(el, 'Find the agreement by') === null).to.be.true;
    expect(control(el, 'Agreement ID') === null).to.be.true;
    expect(el.shadowRoot!.querySelector('[part="preset"]')!.textContent!.replace(/\s+/g, ' ').trim()).to.equal(
      'Agreement ID: 1001',
    );

    await type(el, 'Amount', '250');
    const body = await send(el);
    expect(body.agreement_param_id).to.equal(11);
    expect(body.agreement_param_value).to.equal('1001');
    expect(body.amount).to.equal('250.00');
    await expect(el).to.be.accessible();
  });

  it('a preset agreement wins over the session', async () => {
    const el = await mount(
      html`<billing-pay relay=${RELAY} session=${SESSION} lang="en" agreement="AG-77"></billing-pay>`,
    );
    await type(el, 'Amount', '10');
    const body = await send(el);
    expect(body.agreement_param_id).to.equal(5);
    expect(body.agreement_param_value).to.equal('AG-77');
  });

  it('an expired session leaves the agreement to the client', async () => {
    session = () =>
      json({ error: { code: 'session_invalid', message: 'The client session has expired; reload the page.' } }, 401);
    const el = await mount(html`<billing-pay relay=${RELAY} session=${SESSION} lang="en"></billing-pay>`);
    expect(control(el, 'Agreement number') !== null).to.be.true;
    expect(el.shadowRoot!.querySelector('[part="preset"]') === null).to.be.true;
  });

  it('without a session, /session is not asked', async () => {
    await mount(html`<billing-pay relay=${RELAY} lang="en"></billing-pay>`);
    expect(requests.map((r) => r.url)).to.deep.equal([`${RELAY}/config`]);
  });
});
