/**
 * The mocha globals that @web/test-runner provides in the browser, declared here so the widget's tests type-check
 * without adding @types/mocha (only what these tests use).
 */
type MochaDone = (error?: unknown) => void;
/** `this` in a test: `skip()` only through `skipIn` of ./input.ts, so the reason is printed. */
interface MochaContext {
  timeout(ms: number): void;
  skip(): void;
  test?: { fullTitle(): string; titlePath(): string[] };
}
type MochaFn = (this: MochaContext, done: MochaDone) => void | Promise<unknown>;

declare function describe(title: string, fn: () => void): void;
declare function it(title: string, fn: MochaFn): void;
declare function before(fn: MochaFn): void;
declare function after(fn: MochaFn): void;
declare function beforeEach(fn: MochaFn): void;
declare function afterEach(fn: MochaFn): void;
