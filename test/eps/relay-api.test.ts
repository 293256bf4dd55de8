/**
 * The widget–relay contract (src/eps/relay-api.ts, src/eps/errors.ts): the relay answers only codes of the closed
 * set, and the widget knows every one of them — a text in every built-in language, or a code it names a fault (shown
 * with `internal_error`'s text) — and every problem key. Read from the relay's source, so a code answered without
 * `RelayError` (and its type) is caught too. The widget's side is read from its data: its texts and `FAULT_CODES`.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, ERRORS, isBillingCode } from '../../src/eps/errors.js';
import { FORM_PROBLEM_TEXTS_EN, PROBLEM_TEXTS_EN } from '../../src/eps/messages.js';
import { problemOf, TEXTS } from '../../src/widget/i18n.js';
import { FAULT_CODES } from '../../src/widget/pay-error.js';
import { relayError } from '../../src/widget/relay-client.js';

const RELAY_DIR = new URL('../../src/relay/', import.meta.url);
const relaySources = readdirSync(RELAY_DIR, { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file, text: readFileSync(new URL(file, RELAY_DIR), 'utf8') }));

/** The codes the relay's source can answer: every `new RelayError(status, 'code'` and every `code: 'x'` written. */
function relayCodes(): Set<string> {
  const codes = new Set<string>();
  for (const { text } of relaySources) {
    for (const [, code] of text.matchAll(/new RelayError\([^,()]+(?:\([^()]*\))?[^,()]*,\s*'(\w+)'/g)) codes.add(code!);
    for (const [, code] of text.matchAll(/\bcode:\s*'(\w+)'/g)) codes.add(code!);
  }
  return codes;
}

describe('the relay–widget contract', () => {
  it('the relay answers the codes of the closed set, and no other', () => {
    assert.deepEqual([...relayCodes()].sort(), [...ERROR_CODES].sort());
  });

  it('the relay answers each code with a status its table (ERRORS, docs/relay.md) gives it', () => {
    const wrong: string[] = [];
    let seen = 0;
    for (const { file, text } of relaySources) {
      for (const [, status, code] of text.matchAll(/new RelayError\(\s*(\d{3}),\s*'(\w+)'/g)) {
        seen++;
        const listed: readonly number[] = ERRORS[code as keyof typeof ERRORS]?.status ?? [];
        if (!listed.includes(Number(status))) wrong.push(`${file}: ${status} ${code}`);
      }
    }
    assert.ok(seen > 20, `${seen} answers found`);
    assert.deepEqual(wrong, []);
  });

  it('every error answer is made by RelayError, the one typed shape', () => {
    for (const { file, text } of relaySources) {
      if (file !== join('http', 'errors.ts')) assert.doesNotMatch(text, /\berror:\s*\{\s*code\b/, file);
    }
  });

  it('the widget knows every code the relay can answer, in every built-in language', () => {
    const faults = new Set<string>(FAULT_CODES);
    for (const code of relayCodes()) {
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
