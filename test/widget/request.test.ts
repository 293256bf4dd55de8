import { expect } from '@open-wc/testing';
import { checkPayment } from '../../src/eps/request.js';
import type { SystemId } from '../../src/eps/systems.js';
import { buildPaymentRequest, type FormValues } from '../../src/widget/request.js';

const form = (over: Partial<FormValues> = {}): FormValues => ({
  system: 'A',
  amount: '10.00',
  lookupKind: 5,
  lookupValue: 'AG-1',
  email: '',
  phone: '',
  name: '',
  comment: '',
  save: false,
  linkOnly: false,
  returnUrl: 'https://shop.example/back',
  ...over,
});
const all = { canSave: true, linkOnly: true };
const rules = { maxAmount: 10_000_000n };
const names = (system: SystemId, over: Partial<FormValues> = {}, r = all) =>
  buildPaymentRequest(form({ system, ...over }), r).eps_params.map((p) => p.name);

describe('the payment request built from the form', () => {
  it('passes the shared model for every system, with and without saving', () => {
    for (const system of ['A', 'B', 'C'] as const) {
      for (const save of [false, true]) {
        for (const linkOnly of [false, true]) {
          const body = buildPaymentRequest(
            form({ system, save, linkOnly, email: 'a@b.example', phone: '+7 900 123-45-67', name: 'N', comment: 'c' }),
            all,
          );
          expect(checkPayment(body, rules), `${system} save=${save} link=${linkOnly}`).to.have.property('ok', true);
        }
      }
    }
  });

  it('this browser refuses invisible, private-use and unassigned characters as the relay does', () => {
    for (const c of ['\u3164', '\u115f', '\uffa0', '\u034f', '\ufe0f', '\ue000', '\u0378', '\ufdd0', '\u{f0000}']) {
      const label = `U+${c.codePointAt(0)!.toString(16)}`;
      const lookup = checkPayment(buildPaymentRequest(form({ lookupValue: `AG${c}1` }), all), rules);
      expect(lookup, label).to.have.property('ok', false);
      const name = checkPayment(buildPaymentRequest(form({ system: 'B', name: `Ivan${c}Petrov` }), all), rules);
      expect(name, label).to.have.property('ok', false);
    }
    const clean = checkPayment(buildPaymentRequest(form({ system: 'B', name: 'Иван Петров 김민준 😀' }), all), rules);
    expect(clean).to.have.property('ok', true);
  });

  it('sends only the texts a system takes, trimmed, and none that are empty', () => {
    expect(names('A', { name: 'N', comment: '  ' })).to.deep.equal(['confirmation_type', 'confirmation_return_url']);
    expect(names('B', { name: ' N ' })).to.deep.equal(['confirmation_return_url', 'return_url_fail', 'name']);
    expect(buildPaymentRequest(form({ system: 'B', name: ' N ' }), all).eps_params[2]!.value).to.equal('N');
  });

  it('saves only where the system and the relay allow it; links only with a saved method', () => {
    expect(names('C', { save: true })).to.deep.equal(['return_url']);
    expect(names('A', { save: true }, { canSave: false, linkOnly: false })).to.deep.equal([
      'confirmation_type',
      'confirmation_return_url',
    ]);
    expect(names('A', { linkOnly: true })).to.deep.equal(['confirmation_type', 'confirmation_return_url']);
    expect(names('A', { save: true, linkOnly: true }, { canSave: true, linkOnly: false })).to.not.include(
      'cancel_payment',
    );
    expect(names('B', { save: true, linkOnly: true })).to.deep.equal([
      'confirmation_return_url',
      'return_url_fail',
      'is_autopayment',
    ]);
  });
});
