/**
 * How test/docs/examples.test.ts reads a page: which blocks are examples, what marks one not to run, which answer
 * belongs to which call, and how an answer shown is compared with a real one.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseShown, shapeProblems } from './answer-shape.js';
import { examplesOf } from './markdown-examples.js';
import { expectationsOf, shellProblems, type Call } from './shell-example.js';

const fence = (lang: string, code: string) => `\`\`\`${lang}\n${code}\n\`\`\``;

describe('examplesOf', () => {
  it('takes sh and html blocks, a skip mark with its reason, and the answer block after an example', () => {
    const page = [
      fence('sh', 'npm start'),
      '<!-- example: skip (starts a server) -->\n<!-- embed:start -->',
      fence('sh', 'npm run relay'),
      'prose',
      fence('sh', 'curl http://localhost:8787/config'),
      '',
      fence('json', '{"systems": []}'),
      fence('html', '<billing-pay></billing-pay>'),
      fence('js', 'console.log(1)'),
    ].join('\n');
    const examples = examplesOf(page, 'page.md');
    assert.deepEqual(
      examples.map((e) => [e.kind, e.line, e.skip, e.answer?.kind]),
      [
        ['sh', 1, undefined, undefined],
        ['sh', 6, 'starts a server', undefined],
        ['sh', 10, undefined, 'json'],
        ['html', 17, undefined, undefined],
      ],
    );
  });

  it('refuses a curl in another fence, an unknown mark, and an answer block without its language', () => {
    assert.throws(() => examplesOf(fence('text', 'curl http://x'), 'p.md'), /p\.md:1: a curl example in a ```text/);
    assert.throws(
      () => examplesOf(`<!-- example: maybe -->\n${fence('sh', 'curl x')}`, 'p.md'),
      /p\.md:1: unknown directive "maybe"/,
    );
    assert.throws(
      () => examplesOf(`${fence('sh', 'curl x')}\n${fence('', 'HTTP/1.1 200 OK')}`, 'p.md'),
      /p\.md:4: an answer after an example is a ```http or ```json block/,
    );
  });
});

describe('# → answers', () => {
  const example = (code: string) => ({ file: 'p.md', line: 1, kind: 'sh' as const, code });
  const call = (line: number, status: number, body: unknown): Call => ({
    line,
    status,
    headers: { location: 'x' },
    body: JSON.stringify(body),
  });

  it('speak of the command right above, of each with "each", or of their own line', () => {
    const code = [
      'token=$(curl -s http://a)',
      'curl http://b \\',
      '  -d x',
      '# → 201 {"id": 1}',
      'curl http://c',
      'curl http://d',
      '# each → {"faults":{…}}: what is set',
      'curl http://e   # → 303, Location: https://shop.example/back',
    ].join('\n');
    assert.deepEqual(
      expectationsOf(example(code)).map(({ from, to, each, status, headers, body }) => ({
        from,
        to,
        each,
        status,
        headers,
        body,
      })),
      [
        { from: 1, to: 3, each: false, status: 201, headers: [], body: { id: 1 } },
        { from: 5, to: 6, each: true, status: undefined, headers: [], body: { faults: {} } },
        { from: 8, to: 8, each: false, status: 303, headers: ['location'], body: undefined },
      ],
    );
    const run = (calls: Call[]) => ({ exitCode: 0, stderr: '', calls });
    const good = [call(1, 200, {}), call(2, 201, { id: 7 }), call(5, 200, { faults: {} }), call(6, 200, { faults: {} })];
    assert.deepEqual(shellProblems(example(code), run([...good, call(8, 303, {})])), []);
    assert.match(shellProblems(example(code), run([...good, call(8, 200, {})]))[0]!, /p\.md:9 .*status 200, shown 303/);
    assert.match(
      shellProblems(example(code), run([call(1, 404, {}), ...good.slice(1), call(8, 303, {})]))[0]!,
      /status 404, shown a success/,
    );
  });

  it('refuse a line that states nothing', () => {
    assert.throws(() => expectationsOf(example('curl x\n# → the clock')), /p\.md:3: "# → the clock" states no status/);
  });
});

describe('answers by shape', () => {
  it('read `…` as "and more", and compare keys and JSON types, not values', () => {
    const shown = parseShown('{"faults": {"eps_payments": {"status": 500, "times": 2}, …}, "list": [{"id": 1}, …]}');
    assert.deepEqual(shown, { faults: { eps_payments: { status: 500, times: 2 } }, list: [{ id: 1 }] });
    const real = { faults: { eps_payments: { status: 429, times: 1 }, auth: {} }, list: [{ x: 1 }, { id: 9 }] };
    assert.deepEqual(shapeProblems(shown, real), []);
    assert.deepEqual(shapeProblems(parseShown('{"title": "Visa •••• 4242 …"}'), { title: 'Mir' }), []);
    assert.deepEqual(shapeProblems(shown, { ...real, list: [{ x: 1 }] }), [
      '$.list[0]: no element like {"id":1} in [{"x":1}]',
    ]);
    assert.deepEqual(shapeProblems({ n: 1, s: 'a' }, { n: '1' }), ['$.n: shown as number, is "1"', '$: no key "s"']);
  });
});
