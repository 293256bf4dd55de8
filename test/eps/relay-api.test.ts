/**
 * The widget–relay contract (src/eps/relay-api.ts, src/eps/errors.ts): the relay answers only codes of the closed
 * set (`RelayError` takes a code of the table, and its status and message from it: the compiler keeps them in step),
 * and the widget knows every one of them — a text in every built-in language, or a code it names a fault (shown with
 * `internal_error`'s text) — and every problem key. The widget's side is read from its data: its texts and
 * `FAULT_CODES`.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ERROR_CODES, isBillingCode } from '../../src/eps/errors.js';
import { FORM_PROBLEM_TEXTS_EN, PROBLEM_TEXTS_EN } from '../../src/eps/messages.js';
import { problemOf, TEXTS } from '../../src/widget/i18n.js';
import { FAULT_CODES } from '../../src/widget/pay-error.js';
import { relayError } from '../../src/widget/relay-client.js';

describe('the relay–widget contract', () => {
  it('the widget knows every code the relay can answer, in every built-in language', () => {
    const faults = new Set<string>(FAULT_CODES);
    for (const code of ERROR_CODES) {
      for (const [lang, texts] of Object.entries(TEXTS)) {
        const text = (texts.errors as Record<string, string | undefined>)[code];
        assert.ok(faults.has(code) || text?.trim(), `${lang}: no text for ${code}, and it is not a FaultCode`);
      }
    }
  });

  it('the widget has a text for every problem key, in every built-in language', () => {
    for (const [lang, texts] of Object.entries(TEXTS)) {
      for (const key of Object.keys(PROBLEM_TEXTS_EN)) {
        // A form the widget sends can have only FORM_PROBLEM_TEXTS_EN's keys, each with its own text; a key only a
        // hand-made request can have (`body`, `param_name`, …) is not in the bundle and reads "correct the fields".
        const own = Object.hasOwn(FORM_PROBLEM_TEXTS_EN, key);
        const text = problemOf(texts, key);
        assert.ok(text.trim(), `${lang}: no text for problem ${key}`);
        assert.equal(text === texts.errors.validation_failed, !own, `${lang}: ${key}`);
      }
    }
  });

  it('the billing-side codes are the billing_ ones, and the widget reads them as billing failures', () => {
    assert.deepEqual(ERROR_CODES.filter(isBillingCode), [
      'billing_rejected',
      'billing_error',
      'billing_unavailable',
      'billing_timeout',
    ]);
    for (const code of ERROR_CODES) {
      const failure = relayError(new Response(null, { status: 502 }), { error: { code, message: 'm' } });
      assert.equal(failure.type, isBillingCode(code) ? 'billing' : 'relay', code);
      assert.equal(failure.code, code);
    }
  });
});
