/** The relay's error codes with their HTTP statuses and when each is answered, made from `ERRORS` (src/eps/errors.ts). */
import { ERRORS } from '../../src/eps/errors.js';
import { cell, table } from './markdown.js';

export function errorTable(): string {
  return table(
    ['code', 'HTTP status', 'when'],
    Object.entries(ERRORS).map(([code, { status, when }]) => [`\`${code}\``, status.join(', '), cell(when)]),
  );
}
