/** The Node the relay runs on: 22.13 or later, the first with `node:sqlite` unflagged (its default key store). */
export const MIN_NODE = '22.13';

/** True when `version` (`v22.13.0`) is one the relay supports. */
export function isSupportedNode(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 13);
}
