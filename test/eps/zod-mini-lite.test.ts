/**
 * The browser bundle runs the model's parameter schemas on src/widget/zod-mini-lite.ts instead of zod/mini (see
 * vite.config.ts). This loads src/eps/systems.ts a second time with `zod/mini` resolved to that file, and checks
 * that both engines give the same answers: for every kind of parameter on generated values, and for
 * `paramProblems` of every system on generated parameter sets.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';
import fc from 'fast-check';
import * as real from '../../src/eps/systems.js';

const LITE = new URL('../../src/widget/zod-mini-lite.ts', import.meta.url).href;
// Resolve `zod/mini` to the lite engine for modules loaded with `?engine=lite`, and nowhere else.
register(
  `data:text/javascript,${encodeURIComponent(`
    export async function resolve(specifier, context, next) {
      if (specifier === 'zod/mini' && context.parentURL && context.parentURL.includes('engine=lite')) {
        return next(${JSON.stringify(LITE)}, context);
      }
      return next(specifier, context);
    }`)}`,
);
const liteSystems: string = '../../src/eps/systems.ts?engine=lite';
const lite = (await import(liteSystems)) as typeof real;

/** What `paramProblems` reads of a result. */
function answer(schema: { safeParse(v: unknown): unknown }, value: unknown) {
  const result = schema.safeParse(value) as { success: boolean; error?: { issues: { code: string; message: string }[] } };
  if (result.success) return { ok: true };
  const issues = result.error!.issues;
  return { ok: false, first: issues[0]!.message, stops: issues.some((i) => i.code === 'invalid_type') };
}

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 3 }),
  fc.constantFrom('', ' ', 'redirect', 'https://shop.example/back', 'http://x', 'javascript:alert(1)', 'https://u:p@x.example/', 'client@example.com', 'a@b', '+7 900 123-45-67', '(12) 345', 'line\nbreak', 'Ab_1'),
  fc.tuple(fc.constantFrom('x', '😀', 'a@b.example', 'https://x.example/'), fc.integer({ min: 0, max: 2100 })).map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length))),
);
const value = fc.oneof(text, text, fc.boolean(), fc.integer(), fc.constant(null), fc.constant(undefined), fc.array(fc.boolean(), { maxLength: 3 }), fc.object({ maxDepth: 0 }));

describe('zod-mini-lite, the browser’s engine for the model’s parameter schemas', () => {
  it('is really a second engine (not the same module twice)', () => {
    assert.notEqual(lite.PARAM_SCHEMAS.email, real.PARAM_SCHEMAS.email);
    assert.throws(() => lite.systemParamsSchema('A'), /only the parameter schemas run in the browser/);
  });

  it('answers like zod for every kind of parameter', () => {
    for (const kind of Object.keys(real.PARAM_SCHEMAS) as (keyof typeof real.PARAM_SCHEMAS)[]) {
      fc.assert(
        fc.property(value, (v) => {
          assert.deepEqual(answer(lite.PARAM_SCHEMAS[kind], v), answer(real.PARAM_SCHEMAS[kind], v), `${kind} ${JSON.stringify(v)}`);
        }),
        { numRuns: 3000 },
      );
    }
  });

  it('gives the same paramProblems for every system', () => {
    const names = [...new Set(real.SYSTEM_IDS.flatMap((id) => Object.keys(real.SYSTEMS[id].params)))];
    const params = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 5 })), value), { maxLength: 10 }).map((pairs) => {
      const record: Record<string, unknown> = Object.create(null);
      for (const [k, v] of pairs) record[k] = v;
      return record;
    });
    fc.assert(
      fc.property(fc.constantFrom(...real.SYSTEM_IDS), params, (system, record) => {
        assert.deepEqual([...lite.paramProblems(system, record)], [...real.paramProblems(system, record)]);
      }),
      { numRuns: 5000 },
    );
  });
});
