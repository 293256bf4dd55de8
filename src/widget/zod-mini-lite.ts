/**
 * The part of the `zod/mini` API that the shared model's parameter rules use (`PARAM_SCHEMAS` in
 * src/eps/systems.ts: `string`, `boolean`, `.check`, `maxLength`, `minLength`, `regex`, `refine`, `safeParse`),
 * for the browser bundle only: vite.config.ts aliases `zod/mini` to this file when it builds
 * `dist/billing-pay.js`, so the widget runs the model's own schema definitions — written once, in zod — without
 * zod's general runtime (about 3.8 kB gzip of a 20 kB budget).
 *
 * It answers what `paramProblems` reads of a result: success, the first issue's message, and whether a value of the
 * wrong type (`invalid_type`) stopped the rules. test/eps/zod-mini-lite.test.ts loads systems.ts on both engines and
 * proves they agree on generated values of every kind and on generated parameter sets of every system. The
 * relay, the sandbox, the tests and the package's own ES module build (dist/lib) use the real zod.
 */

export interface Issue {
  code: 'invalid_type' | 'too_big' | 'too_small' | 'invalid_format' | 'custom';
  message: string;
  path: PropertyKey[];
  input: unknown;
}

type SafeParse = { success: true; data: unknown } | { success: false; error: { issues: Issue[] } };
type ErrorParam = string | { error: (issue: { code: string; input: unknown }) => string };
/** A check answers its issue's code and message when the value fails it. */
type Check = (value: string) => [Issue['code'], string] | undefined;

export interface ZodMiniType {
  check(...checks: Check[]): ZodMiniType;
  safeParse(input: unknown): SafeParse;
}

function schema(type: 'string' | 'boolean', error: ErrorParam | undefined, checks: Check[] = []): ZodMiniType {
  return {
    check: (...more) => schema(type, error, [...checks, ...more]),
    safeParse(input) {
      const found: [Issue['code'], string][] =
        typeof input === type
          ? checks.map((check) => check(input as string)).filter((issue) => issue !== undefined)
          : [['invalid_type', typeof error === 'string' ? error : (error?.error({ code: 'invalid_type', input }) ?? 'Invalid input')]];
      return found.length
        ? { success: false, error: { issues: found.map(([code, message]) => ({ code, message, path: [], input })) } }
        : { success: true, data: input };
    },
  };
}

export const string = (error?: ErrorParam) => schema('string', error);
export const boolean = (error?: ErrorParam) => schema('boolean', error);

/** Length in code points, as zod counts it (a surrogate pair is one). */
const length = (text: string) => [...text].length;

export const maxLength =
  (maximum: number, message: string): Check =>
  (input) =>
    length(input) > maximum ? ['too_big', message] : undefined;

export const minLength =
  (minimum: number, message: string): Check =>
  (input) =>
    length(input) < minimum ? ['too_small', message] : undefined;

export const regex =
  (pattern: RegExp, message: string): Check =>
  (input) =>
    ((pattern.lastIndex = 0), pattern.test(input)) ? undefined : ['invalid_format', message];

export const refine =
  (test: (input: string) => unknown, message: string): Check =>
  (input) =>
    test(input) ? undefined : ['custom', message];

/** What the model builds only for the relay and the sandbox; never called in the browser. */
const serverOnly = (): never => {
  throw new Error('zod-mini-lite: only the parameter schemas run in the browser');
};
export const optional = serverOnly;
export const strictObject = serverOnly;
