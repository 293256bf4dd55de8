/**
 * The examples of a Markdown page, as test/docs/examples.test.ts runs them:
 * - every fenced `sh` block (`bash`, `shell`, `console` too) and every `html` block is an example, and runs;
 * - a block that must not run says so on a line before it: `<!-- example: skip (why) -->` — only blank lines and
 *   other HTML comments (a generated part's markers) may stand between;
 * - a fenced `json` or `http` block right after a `sh` example (blank lines between at most) is the answer of its
 *   last command; inside a `sh` block, `# → …` states the answer of the commands right above it (shell-answers.ts).
 * A `curl` in a fenced block of any other language is an error: no example escapes the test by its fence.
 */
export type ExampleKind = 'sh' | 'html';

export interface Example {
  file: string;
  /** The line of the opening fence (1-based). */
  line: number;
  kind: ExampleKind;
  code: string;
  /** Why it does not run, when it is marked so. */
  skip?: string;
  /** The answer block shown after it. */
  answer?: { kind: 'json' | 'http'; text: string; line: number };
}

const KINDS: Record<string, ExampleKind> = { sh: 'sh', bash: 'sh', shell: 'sh', console: 'sh', html: 'html' };
const DIRECTIVE = /^<!--\s*example:\s*(.*?)\s*-->$/;
const COMMENT = /^<!--.*-->$/;

export interface Fence {
  lang: string;
  line: number;
  code: string;
  /** What the HTML comments right above it say (`<!-- example: … -->`). */
  directive?: { text: string; line: number };
  /** Whether only blank lines separate it from the fence before it. */
  followsFence: boolean;
}

export function fencesOf(markdown: string, file: string): Fence[] {
  const lines = markdown.split('\n');
  const fences: Fence[] = [];
  let directive: Fence['directive'];
  let lastWasFence = false;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!.trim();
    const open = /^(`{3,}|~{3,})\s*([\w-]*)/.exec(text);
    if (open) {
      const close = lines.findIndex((l, j) => j > i && l.trim() === open[1]);
      if (close < 0) throw new Error(`${file}:${i + 1}: a fenced block that is never closed`);
      fences.push({
        lang: open[2]!.toLowerCase(),
        line: i + 1,
        code: lines.slice(i + 1, close).join('\n'),
        directive,
        followsFence: lastWasFence,
      });
      directive = undefined;
      lastWasFence = true;
      i = close;
      continue;
    }
    if (text === '') continue;
    const said = DIRECTIVE.exec(text);
    if (said) directive = { text: said[1]!, line: i + 1 };
    else if (!COMMENT.test(text)) directive = undefined;
    lastWasFence = false;
  }
  return fences;
}

/** The page's examples in document order; throws on a directive it does not know or a curl in another fence. */
export function examplesOf(markdown: string, file: string): Example[] {
  const examples: Example[] = [];
  for (const fence of fencesOf(markdown, file)) {
    const where = `${file}:${fence.line}`;
    const kind = KINDS[fence.lang];
    const previous = examples.at(-1);
    if (
      (fence.lang === 'json' || fence.lang === 'http') &&
      fence.followsFence &&
      previous?.kind === 'sh' &&
      !previous.answer &&
      !fence.directive
    ) {
      previous.answer = { kind: fence.lang, text: fence.code, line: fence.line };
      continue;
    }
    if (!kind && !fence.lang && fence.followsFence && previous?.kind === 'sh' && /^\s*(HTTP\/|[[{])/.test(fence.code)) {
      throw new Error(`${where}: an answer after an example is a \`\`\`http or \`\`\`json block`);
    }
    if (!kind) {
      if (/(^|[\s;|&(])curl\s/m.test(fence.code)) throw new Error(`${where}: a curl example in a \`\`\`${fence.lang} block; make it \`\`\`sh`);
      if (fence.directive) throw new Error(`${where}: <!-- example: … --> before a block that is no example`);
      continue;
    }
    const example: Example = { file, line: fence.line, kind, code: fence.code };
    if (fence.directive) {
      const skip = /^skip\s*\((.+)\)$/.exec(fence.directive.text);
      if (!skip) throw new Error(`${file}:${fence.directive.line}: unknown directive "${fence.directive.text}"; say "skip (why)"`);
      example.skip = skip[1];
    }
    examples.push(example);
  }
  return examples;
}
