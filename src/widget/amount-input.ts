/**
 * What a person types into the Amount field, read as money text: never through a float.
 *
 * Accepted: `1500`, `1500.5`, `1500.50`; in Russian also `1 500,50` (with a plain space, a no-break space U+00A0 or
 * a narrow no-break space U+202F between groups of three) and a decimal point; in English also `1,500.50`.
 * The answer is the canonical two-decimal text of the shared model (`"1500.50"`) or the problem key that says why not.
 */
import { canonicalAmount, MAX_INTEGER_DIGITS } from '../eps/amount.js';
import type { Lang } from './i18n.js';

export type AmountInputProblem = 'required' | 'amount_format' | 'amount_decimals' | 'amount_positive';

export type AmountInput = { ok: true; amount: string } | { ok: false; problem: AmountInputProblem };

/** Space-like characters people and `Intl` put between digit groups. */
const GROUP_SPACES = /[\s\u00a0\u202f\u2007\u2009]/g;

export function parseAmountInput(text: string, lang: Lang): AmountInput {
  const source = text.replace(GROUP_SPACES, ' ').trim();
  if (!source) return { ok: false, problem: 'required' };
  if (/^[-−‒–]/.test(source)) return { ok: false, problem: 'amount_positive' };

  // The decimal separator: a comma in Russian, a point in English; a point is also read as decimal in Russian.
  const groupMark = lang === 'ru' ? ' ' : /[ ,]/;
  const decimalMark = lang === 'ru' ? /[.,]/ : /\./;
  const match = new RegExp(`^([\\d ${lang === 'ru' ? '' : ','}]+?)(?:${decimalMark.source}(\\d*))?$`).exec(source);
  if (!match) return { ok: false, problem: 'amount_format' };
  const [, wholeText = '', fraction = ''] = match;

  const groups = wholeText.split(groupMark);
  const grouped = groups.length > 1;
  if (grouped && !groups.every((g, i) => (i === 0 ? /^\d{1,3}$/ : /^\d{3}$/).test(g))) {
    return { ok: false, problem: 'amount_format' };
  }
  if (lang !== 'ru' && /,/.test(wholeText) && / /.test(wholeText)) return { ok: false, problem: 'amount_format' };
  const whole = groups.join('');
  if (!/^\d+$/.test(whole) || whole.replace(/^0+(?=\d)/, '').length > MAX_INTEGER_DIGITS) {
    return { ok: false, problem: 'amount_format' };
  }
  if (match[2] !== undefined && !fraction) return { ok: false, problem: 'amount_format' };
  if (fraction.length > 2) return { ok: false, problem: 'amount_decimals' };

  const amount = canonicalAmount(`${whole.replace(/^0+(?=\d)/, '')}${fraction ? `.${fraction}` : ''}`);
  if (amount === null) return { ok: false, problem: 'amount_format' };
  if (/^0\.00$/.test(amount)) return { ok: false, problem: 'amount_positive' };
  return { ok: true, amount };
}

/** The canonical text shown the way the language writes it: `"1500.50"` → `1 500,50` (ru, no-break spaces) or `1,500.50`. */
export function formatAmount(canonical: string, lang: Lang): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(canonical);
  if (!match) return canonical;
  const [, whole = '', fraction] = match;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, lang === 'ru' ? '\u00a0' : ',');
  return fraction === undefined ? grouped : `${grouped}${lang === 'ru' ? ',' : '.'}${fraction}`;
}
