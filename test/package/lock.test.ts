/**
 * The lock file check (scripts/check-lock.ts) on the real files, and on copies broken the ways that broke `npm ci`.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lockProblems, type PackageJson, type PackageLock } from '../../scripts/check-lock.js';

const read = <T>(file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')) as T;
const pkg = read<PackageJson>('package.json');
const lock = read<PackageLock>('package-lock.json');
const copy = <T>(value: T): T => structuredClone(value);

describe('package-lock.json', () => {
  it('fits package.json and records every optional platform package', () => {
    assert.deepEqual(lockProblems(pkg, lock), []);
  });

  it('records rollup at the pinned version with all its platform packages (win32, darwin, linux-musl…)', () => {
    assert.equal(lock.packages['node_modules/rollup']?.version, pkg.overrides?.rollup);
    const platforms = Object.keys(lock.packages['node_modules/rollup']!.optionalDependencies!).filter((n) =>
      n.startsWith('@rollup/'),
    );
    assert.ok(platforms.length >= 20, `${platforms.length} platform packages`);
    for (const name of platforms)
      assert.equal(lock.packages[`node_modules/${name}`]?.version, pkg.overrides?.rollup, name);
  });

  it('a missing platform package is named', () => {
    const broken = copy(lock);
    delete broken.packages['node_modules/@rollup/rollup-win32-x64-msvc'];
    assert.deepEqual(lockProblems(pkg, broken), [
      `@rollup/rollup-win32-x64-msvc@${pkg.overrides?.rollup} (optional dependency of node_modules/rollup) is missing from the lock`,
    ]);
  });

  it('a platform package at another version than its exact pin is named', () => {
    const broken = copy(lock);
    broken.packages['node_modules/@rollup/rollup-darwin-arm64']!.version = '4.0.0';
    assert.match(lockProblems(pkg, broken).join('\n'), /@rollup\/rollup-darwin-arm64 is 4\.0\.0 in the lock/);
  });

  it('package.json and the lock disagreeing on a range, an added or a removed dependency is named', () => {
    const changed = copy(pkg);
    changed.dependencies = { ...changed.dependencies, lit: '^2.0.0', 'left-pad': '^1.3.0' };
    delete changed.devDependencies!.vite;
    const problems = lockProblems(changed, lock).join('\n');
    const lockedLit = String(lock.packages['']?.dependencies?.lit).replace(/[.^$]/g, '\\$&');
    assert.match(problems, new RegExp(`dependencies\\.lit: package\\.json says \\^2\\.0\\.0, the lock ${lockedLit}`));
    assert.match(problems, /dependencies\.left-pad: package\.json says \^1\.3\.0, the lock nothing/);
    assert.match(problems, /dependencies\.left-pad is not installed by the lock/);
    assert.match(problems, /devDependencies\.vite is in the lock, not in package\.json/);
  });

  it('an exact override the lock does not install is named', () => {
    const changed = copy(pkg);
    changed.overrides = { ...changed.overrides, rollup: '4.60.0' };
    const pinned = String(pkg.overrides?.rollup).replaceAll('.', '\\.');
    assert.match(
      lockProblems(changed, lock).join('\n'),
      new RegExp(`node_modules/rollup is ${pinned}, the override says 4\\.60\\.0`),
    );
  });
});
