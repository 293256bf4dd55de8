/**
 * Structured JSON logs (pino). Credentials, tokens, e-mails and phones are redacted under these names at any of the
 * first four levels of a logged object (`upstream.request.headers.authorization`, say), so a careless log call
 * cannot leak them. (pino's error serializer keeps only the message and stack of an error's `cause`.)
 */
import { pino, type Logger } from 'pino';

const SECRET_KEYS = ['authorization', 'Authorization', 'password', 'billingPassword', 'token', 'email', 'phone'];
const DEPTH = 4;

export const REDACTED_PATHS = SECRET_KEYS.flatMap((key) => Array.from({ length: DEPTH }, (_, level) => [...Array<string>(level).fill('*'), key].join('.')));

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, base: undefined, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}
