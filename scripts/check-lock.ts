/**
 * `npm run check:lock`: does package-lock.json still fit package.json, for `npm ci` on every platform? Fails naming
 * each problem:
 * - a dependency, devDependency, peerDependency or override of package.json that the lock's root entry records
 *   differently (or not at all): `npm ci` refuses such a lock as out of sync;
 * - a package of the lock whose optional dependency is not in the lock: the platform packages of rollup, esbuild,
 *   rolldown… are optional dependencies, and a lock written where one was missing fails `npm ci` on the platforms that
 *   need it ("Missing: @rollup/rollup-win32-x64-msvc@… from lock file");
 * - an exact optional version (`"4.67.4"`) recorded at another version.
 * It reads the two files only: no network, no install. test/package/lock.test.ts runs it on the real files and on
 * broken copies.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
export interface PackageLock {
  lockfileVersion?: number;
  packages: Record<string, LockEntry>;
}
export interface PackageJson {
  name?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  overrides?: Record<string, unknown>;
}

const ROOT_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

export function lockProblems(pkg: PackageJson, lock: PackageLock): string[] {
  const problems: string[] = [];
  if (lock.lockfileVersion !== 3)
    problems.push(`lockfileVersion is ${lock.lockfileVersion}, not 3 (npm 9 or newer writes 3)`);
  const root = lock.packages?.[''];
  if (!root) return [...problems, 'the lock has no root entry (packages[""])'];

  for (const field of ROOT_FIELDS) {
    const wanted = pkg[field] ?? {};
    const locked = root[field] ?? {};
    for (const [name, range] of Object.entries(wanted)) {
      if (locked[name] !== range)
        problems.push(`${field}.${name}: package.json says ${range}, the lock ${locked[name] ?? 'nothing'}`);
      if (field !== 'peerDependencies' && !resolve(lock, '', name))
        problems.push(`${field}.${name} is not installed by the lock`);
    }
    for (const name of Object.keys(locked))
      if (!(name in wanted)) problems.push(`${field}.${name} is in the lock, not in package.json`);
  }

  // An exact override must be what the lock installs wherever that package is.
  for (const [name, spec] of Object.entries(pkg.overrides ?? {})) {
    if (typeof spec !== 'string' || !/^\d+\.\d+\.\d+$/.test(spec)) continue;
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path.endsWith(`node_modules/${name}`) && entry.version !== spec)
        problems.push(`${path} is ${entry.version}, the override says ${spec}`);
    }
  }

  for (const [path, entry] of Object.entries(lock.packages)) {
    for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
      const found = resolve(lock, path, name);
      if (!found) problems.push(`${name}@${spec} (optional dependency of ${path}) is missing from the lock`);
      else if (/^\d+\.\d+\.\d+$/.test(spec) && found.version !== spec)
        problems.push(`${name} is ${found.version} in the lock, ${path} wants ${spec}`);
    }
  }
  return problems;
}

/** Node's lookup in the lock: `from/node_modules/name`, then each enclosing node_modules, then the top. */
function resolve(lock: PackageLock, from: string, name: string): LockEntry | undefined {
  let dir = from;
  for (;;) {
    const entry = lock.packages[`${dir ? `${dir}/` : ''}node_modules/${name}`];
    if (entry) return entry;
    if (!dir) return undefined;
    const up = dir.lastIndexOf('/node_modules/');
    dir = up < 0 ? '' : dir.slice(0, up);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')) as unknown;
  const problems = lockProblems(read('package.json') as PackageJson, read('package-lock.json') as PackageLock);
  if (problems.length) {
    console.error(
      `package-lock.json does not fit package.json (regenerate it: CONTRIBUTING.md, "The lock file"):\n  ${problems.join('\n  ')}`,
    );
    process.exit(1);
  }
  console.log('package-lock.json fits package.json; every optional platform package is recorded.');
}
