/**
 * `billing-pay-relay init`: a starter `.env` — `.env.example` with a fresh `SESSION_SECRET` — created only where no
 * file is, readable by its owner alone.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { envExample } from './env-example.js';
import type { VariableName } from './variables.js';

/** 64 base64url characters: well above the 32 bytes a session secret needs (MIN_SECRET_BYTES). */
const SECRET_BYTES = 48;
const SECRET: VariableName = 'SESSION_SECRET';

export function starterEnv(): string {
  const line = new RegExp(`^${SECRET}=.*$`, 'm');
  const example = envExample();
  if (!line.test(example)) throw new Error(`.env.example has no ${SECRET} line`);
  return example.replace(line, `${SECRET}=${randomBytes(SECRET_BYTES).toString('base64url')}`);
}

/** Creates `file` (`wx`: fails with `EEXIST` if anything is there, even one created a moment ago), mode 0600. */
export function writeStarterEnv(file: string): void {
  writeFileSync(file, starterEnv(), { flag: 'wx', mode: 0o600 });
}
