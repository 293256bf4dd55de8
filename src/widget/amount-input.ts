/**
 * What a person types into the Amount field, read as money text: never through a float.
 *
 * The marks come from `Intl.NumberFormat` for the widget's locale: in English `1,500.50`, in Russian `1 500,50` (a
 * plain space, a no-break space U+00A0 or a narrow no-break space U+202F between groups), in German `1.500,50`.
 * Spaces always group digits; a point is also read as the decimal mark where it is not the group mark (Russian
 * `1500.50`). Groups are of three digits (of two in the middle, as in Indian English `12,34,567`); without any group
 * mark, digits are read as they are (`1500`).
 * The answer is the canonical two-decimal text of the shared model (`"1500.50"`) or the problem key that says why not.
 */
import { canonicalAmount, MAX_INTEGER_DIGITS } from '../eps/amount.js';
import { marks, numberFormat } from '../eps/locale-amount.js';

export { formatAmount } from '../eps/locale-amount.js';

export type AmountInputProblem = 'required' | 'amount_format' | 'amount_decimals' | 'amount_positive';

export type AmountInput = { ok: true; amount: string } | { ok: false; problem: AmountInputProblem };

const escape = (text: string) => text.replace(/[\\^\]-]/g, '\\$&');

export function parseAmountInput(text: string, locale: string): AmountInput {
  const source = text.replace(/\s+/g, ' ').trim();
  if (!source) return { ok: false, problem: 'required' };
  if (/^[-−‒–]/.test(source)) return { ok: false, problem: 'amount_positive' };

  const [group, decimal] = marks(numberFormat(locale));
  const groupMarks = ` ${/\s/.test(group) ? '' : group}`;
  const decimalMarks = decimal + (group === '.' ? '' : '.');
  const match = new RegExp(`^(\\d[\\d${escape(groupMarks)}]*?)(?:[${escape(decimalMarks)}](\\d*))?$`).exec(source);
  if (!match) return { ok: false, problem: 'amount_format' };
  const [, wholeText = '', fraction = ''] = match;

  const used = new Set(wholeText.replace(/\d/g, ''));
  const groups = wholeText.split(/\D/);
  const last = groups.length - 1;
  if (
    used.size > 1 ||
    (last > 0 && !groups.every((g, i) => (i ? (i === last ? /^\d{3}$/ : /^\d{2,3}$/) : /^\d{1,3}$/).test(g)))
  ) {
    return { ok: false, problem: 'amount_format' };
  }
  const whole = groups.join('').replace(/^0+(?=\d)/, '');
  if (whole.length > MAX_INTEGER_DIGITS || (match[2] !== undefined && !fraction))
    return { ok: false, problem: 'amount_format' };
  if (fraction.length > 2) return { ok: false, problem: 'amount_decimals' };

  const amount = canonicalAmount(fraction ? `${whole}.${fraction}` : whole);
  if (amount === null) return { ok: false, problem: 'amount_format' };
  if (amount === '0.00') return { ok: false, problem: 'amount_positive' };
  return { ok: true, amount };
}
