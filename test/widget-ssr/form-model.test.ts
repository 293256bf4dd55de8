/**
 * The payment form as data (src/widget/form-model.ts, and its check, form-check.ts), with no DOM: what `<billing-pay>`
 * shows for its attributes and the relay's `/config`, and which problems a press of Pay finds, in the order of the fields.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkForm } from '../../src/widget/form-check.js';
import {
  firstProblemField,
  formView,
  NO_VALUES,
  unshownProblems,
  withoutProblems,
  type FormInput,
} from '../../src/widget/form-model.js';

const CONFIG = {
  systems: [
    { id: 'A' as const, canSave: true, linkOnly: true },
    { id: 'B' as const, canSave: true, linkOnly: false },
    { id: 'C' as const, canSave: false, linkOnly: false },
  ],
  lookups: [1, 4, 5, 6, 7, 8, 10, 11, 14, 15],
  maxAmount: '100000.00',
  autopayLeadDays: 1,
};

const input = (over: Partial<FormInput> = {}): FormInput => ({
  config: CONFIG,
  systems: '',
  lookup: '5',
  agreement: '',
  amount: '',
  amountFixed: false,
  allowLinkOnly: false,
  showComment: false,
  commentOpen: false,
  problems: {},
  sessionAgreement: '',
  chosenSystem: null,
  chosenKind: null,
  values: { ...NO_VALUES },
  save: false,
  linkOnly: false,
  ...over,
});
const OPTIONS = { locale: 'en', returnUrl: 'https://shop.example/back' };

describe('formView', () => {
  it('offers what the relay offers, in the order of the systems attribute, and nothing before /config', () => {
    assert.deepEqual(formView(input({ config: null })).fields, []);
    assert.deepEqual(
      formView(input({ systems: 'c a x' })).systems.map((s) => s.id),
      ['C', 'A'],
    );
    assert.equal(formView(input({ systems: 'c a', chosenSystem: 'A' })).system?.id, 'A');
  });

  it('lists the fields in the order shown, with the request paths each shows', () => {
    const v = formView(input({ lookup: '5 7' }));
    assert.deepEqual(
      v.fields.map((f) => f.id),
      ['system-A', 'f-kind', 'f-lookupValue', 'f-amount', 'f-contact', 'f-save'],
    );
    assert.equal(v.commentHidden, true, 'the comment waits behind "Add a comment"');
    assert.deepEqual(
      formView(input({ commentOpen: true }))
        .fields.map((f) => f.id)
        .slice(-3),
      ['f-contact', 'f-comment', 'f-save'],
    );
    assert.equal(formView(input({ showComment: true })).commentHidden, false);
    assert.deepEqual(formView(input({ chosenSystem: 'B' })).fields.find((f) => f.id === 'f-contact')?.paths, [
      'eps_params.email',
      'eps_params.phone',
    ]);
    assert.deepEqual(v.fields.at(-1)!.paths, [
      'eps_params.save_payment_method',
      'eps_params.enable_autopayments',
      'eps_params.preferred_method',
      'eps_params.cancel_payment',
    ]);
    // System C takes no save switch; one lookup kind needs no chooser.
    assert.deepEqual(
      formView(input({ chosenSystem: 'C' }))
        .fields.map((f) => f.id)
        .filter((id) => /kind|save/.test(id)),
      [],
    );
  });

  it('asks for each lookup kind with its keyboard and autofill (from eps/lookup.ts)', () => {
    const lookupField = (kind: number) =>
      formView(input({ lookup: String(kind) })).textFields.find((f) => f.name === 'lookupValue');
    const base = { name: 'lookupValue', type: 'text', autocomplete: 'off' };
    assert.deepEqual(lookupField(7), { ...base, type: 'email', autocomplete: 'email' });
    assert.deepEqual(lookupField(15), { ...base, inputmode: 'numeric' });
    assert.deepEqual(lookupField(1), { ...base, autocomplete: 'username' });
    assert.deepEqual(lookupField(5), base);
  });

  it('a session presets its agreement, found by its ID (kind 11), unless the merchant presets one', () => {
    const session = formView(input({ lookup: '5 7', sessionAgreement: '77' }));
    assert.deepEqual([session.kinds, session.kind, session.preset], [[11], 11, '77']);
    assert.equal(
      session.textFields.some((f) => f.name === 'lookupValue'),
      false,
    );
    const merchant = formView(input({ lookup: '5 7', agreement: 'AG-1', sessionAgreement: '77' }));
    assert.deepEqual([merchant.kind, merchant.preset], [5, 'AG-1']);
  });

  it('offers link-only only with allow-link-only, on a system that can, and a fixed amount is read-only', () => {
    assert.equal(formView(input()).linkOnly, false);
    assert.equal(formView(input({ allowLinkOnly: true })).linkOnly, true);
    assert.equal(formView(input({ allowLinkOnly: true, chosenSystem: 'B' })).linkOnly, false);
    assert.equal(
      formView(input({ amount: '10', amountFixed: true })).textFields.find((f) => f.name === 'amount')!.readonly,
      true,
    );
  });
});

describe('checkForm', () => {
  it('a valid form is the request to send', () => {
    const entered = input({ values: { ...NO_VALUES, amount: '1,500.5', lookupValue: ' AG-1001 ' } });
    const checked = checkForm(formView(entered), entered, OPTIONS);
    assert.ok(checked.ok);
    assert.equal(checked.request.amount, '1500.50');
    assert.equal(checked.request.agreement_param_value, 'AG-1001');
  });

  it('problems come in the order of the fields, the amount read in the locale, the first one focused', () => {
    const entered = input({ values: { ...NO_VALUES, amount: '15,5', contact: 'not-an-address' } });
    const v = formView(entered);
    const checked = checkForm(v, entered, OPTIONS);
    assert.ok(!checked.ok);
    // English reads a comma as a group mark: "15,5" is no amount (its reason, not the request check's).
    assert.deepEqual(Object.entries(checked.problems), [
      ['agreement_param_value', 'required'],
      ['amount', 'amount_format'],
      ['eps_params.email', 'email'],
    ]);
    assert.equal(firstProblemField(v, checked.problems), 'f-lookupValue');
    assert.equal(firstProblemField(v, { 'eps_params.email': 'email' }), 'f-contact');
  });

  it('sends the one receipt contact as an e-mail or a phone, as typed', () => {
    for (const [contact, param] of [
      ['name@example.com', 'email'],
      ['+7 900 123-45-67', 'phone'],
    ] as const) {
      const entered = input({ values: { ...NO_VALUES, amount: '10', lookupValue: 'AG-1', contact } });
      const checked = checkForm(formView(entered), entered, OPTIONS);
      assert.ok(checked.ok);
      const params = Object.fromEntries(checked.request.eps_params.map((p) => [p.name, p.value]));
      assert.equal(params[param], contact);
      assert.equal(params[param === 'email' ? 'phone' : 'email'], undefined);
    }
  });

  it('a problem no control shows is left for the status line', () => {
    const entered = input({ agreement: 'AG 1 !!', values: { ...NO_VALUES, amount: '10' } });
    const v = formView(entered);
    const checked = checkForm(v, entered, { ...OPTIONS, returnUrl: 'javascript:alert(1)' });
    assert.ok(!checked.ok);
    assert.deepEqual(
      unshownProblems(v, checked.problems).map(([path]) => path),
      ['agreement_param_value', 'eps_params.confirmation_return_url'],
    );
    assert.equal(firstProblemField(v, checked.problems), undefined);
  });
});

describe('withoutProblems', () => {
  it('drops the problems of the fields a person changed, and keeps the same object when there were none', () => {
    const problems = { amount: 'required', agreement_param_value: 'required', agreement_param_id: 'lookup_kind' };
    assert.deepEqual(withoutProblems(problems, 'agreement_param_id', 'agreement_param_value'), { amount: 'required' });
    assert.equal(withoutProblems(problems, 'eps_params.email'), problems);
  });
});
