/**
 * A docs' `sh` example run as a reader runs it — bash with `set -euo pipefail` — with `curl` recorded: every call's
 * status, headers and body, and the line it was called from. What the docs say each call answers:
 * - `# → 201 {"payment": {"payment_id": 1}}` (status, `Name: value` headers, JSON, each optional; prose may follow
 *   the JSON) states the answer of the command right above it; `# each → …`, of every command of the lines right
 *   above it (up to a blank or comment line). `#`-lines indented by two spaces or more continue it. Put after a
 *   command on its line, it is that command's.
 * - a `json` or `http` block after the example is the answer of its last call;
 * - any other call must succeed (a status below 400).
 * Answers are compared by shape (answer-shape.ts); a header shown must be sent.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseShown, shapeProblems } from './answer-shape.js';
import type { Example } from './markdown-examples.js';

export interface Call {
  /** The example's line it was made from (1-based). */
  line: number;
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface ShellRun {
  exitCode: number | null;
  stderr: string;
  calls: Call[];
}

/** What a `# →` comment says of the calls made from lines `from`…`to`. */
export interface Expectation {
  line: number;
  from: number;
  to: number;
  /** `# each →`: every call made from those lines; else the last one's. */
  each: boolean;
  status?: number;
  headers: string[];
  body?: unknown;
}

/** What an answer says, whoever it is of. */
type Stated = Omit<Expectation, 'line' | 'from' | 'to' | 'each'>;

const PRELUDE = [
  'set -euo pipefail',
  'curl() { local call; call=$(mktemp "$EXAMPLE_CALLS/call.XXXXXX"); echo "$call ${BASH_LINENO[0]}" >> "$EXAMPLE_CALLS/index"; command curl -sS -D "$call.head" "$@" | tee "$call.out"; }',
];

/** Runs `code` with bash; each `curl` it calls is recorded. */
export async function runShell(code: string, timeoutMs = 20_000): Promise<ShellRun> {
  const dir = await mkdtemp(join(tmpdir(), 'billing-pay-example-'));
  try {
    const child = spawn('bash', ['-c', [...PRELUDE, code].join('\n')], {
      env: { ...process.env, EXAMPLE_CALLS: dir },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: timeoutMs,
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => resolve(code));
    });
    const index = await readFile(join(dir, 'index'), 'utf8').catch(() => '');
    const calls: Call[] = [];
    for (const entry of index.split('\n').filter(Boolean)) {
      const [file, line] = entry.split(' ') as [string, string];
      const head = await readFile(`${file}.head`, 'utf8').catch(() => '');
      const out = await readFile(`${file}.out`, 'utf8').catch(() => '');
      calls.push({ line: Number(line) - PRELUDE.length, ...parseHead(head), body: out.startsWith(head) ? out.slice(head.length) : out });
    }
    return { exitCode, stderr, calls };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The last response's status and headers of what curl's `-D` wrote (a `100 Continue` may come first). */
function parseHead(head: string): { status: number; headers: Record<string, string> } {
  const blocks = head.split(/\r?\n\r?\n/).filter((b) => /^HTTP\//.test(b));
  const [statusLine = '', ...lines] = (blocks.at(-1) ?? '').split(/\r?\n/);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(/^HTTP\/[\d.]+ (\d{3})/.exec(statusLine)?.[1] ?? 0), headers };
}

/** The JSON text at the start of `text` (to its matching bracket), and what follows it. */
function leadingJson(text: string): [string, string] {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return [text.slice(0, i + 1), text.slice(i + 1)];
  }
  throw new Error(`unbalanced JSON: ${text}`);
}

/** What an answer line says: `201, Location: …, {…}` — status, headers, JSON, each optional; prose after the JSON. */
function parseStated(text: string, where: string): Stated {
  let rest = text.trim();
  const stated: Stated = { headers: [] };
  const status = /^(\d{3})\b[,\s]*/.exec(rest);
  if (status) {
    stated.status = Number(status[1]);
    rest = rest.slice(status[0].length);
  }
  for (let header; (header = /^([A-Za-z][\w-]*): *[^\s,]+[,\s]*/.exec(rest)); rest = rest.slice(header[0].length)) {
    stated.headers.push(header[1]!.toLowerCase());
  }
  if (/^[[{]/.test(rest)) {
    const [json] = leadingJson(rest);
    try {
      stated.body = parseShown(json);
    } catch (error) {
      throw new Error(`${where}: the answer shown is not JSON: ${json}`, { cause: error });
    }
  } else if (rest && stated.status === undefined && !stated.headers.length) {
    throw new Error(`${where}: "# → ${text.trim()}" states no status, header or JSON`);
  }
  return stated;
}

const ARROW = /(^|\s)#\s*(each\s+)?→(.*)$/;
const isComment = (line: string) => /^\s*#/.test(line);

/** The `# →` answers of a `sh` example, each with the lines of the commands it speaks of. */
export function expectationsOf(example: Pick<Example, 'code' | 'file' | 'line'>): Expectation[] {
  const lines = example.code.split('\n');
  const found: Expectation[] = [];
  lines.forEach((line, i) => {
    const arrow = ARROW.exec(line);
    if (!arrow) return;
    const where = `${example.file}:${example.line + 1 + i}`;
    let from = i;
    let text = arrow[3]!;
    if (isComment(line)) {
      while (from > 0 && lines[from - 1]!.trim() !== '' && !isComment(lines[from - 1]!)) from--;
      for (let j = i + 1; j < lines.length && /^\s*#\s{2,}\S/.test(lines[j]!); j++) text += ` ${lines[j]!.replace(/^\s*#/, '').trim()}`;
      if (from === i) throw new Error(`${where}: "# →" with no command right above it`);
    } else {
      while (from > 0 && lines[from - 1]!.trimEnd().endsWith('\\')) from--;
    }
    const each = Boolean(arrow[2]);
    found.push({ line: i + 1, from: from + 1, to: isComment(line) ? i : i + 1, each, ...parseStated(text, where) });
  });
  return found;
}

/** An `http` answer block: its status line, header names and JSON body. */
function parseHttpAnswer(text: string, where: string): Stated {
  const [head = '', body = ''] = text.split(/\n\s*\n/, 2);
  const [statusLine = '', ...headerLines] = head.split('\n');
  const status = /^HTTP\/[\d.]+ (\d{3})/.exec(statusLine);
  if (!status) throw new Error(`${where}: an http answer starts with its status line`);
  return {
    status: Number(status[1]),
    headers: headerLines.map((l) => l.slice(0, l.indexOf(':')).trim().toLowerCase()).filter(Boolean),
    body: body.trim() ? parseShown(body) : undefined,
  };
}

/** How the run differs from what the example says: one line each, empty when it does as shown. */
export function shellProblems(example: Example, run: ShellRun): string[] {
  const at = (line: number) => `${example.file}:${example.line + line}`;
  const problems: string[] = [];
  if (run.exitCode !== 0) problems.push(`${at(1)}: exited ${run.exitCode}: ${run.stderr.trim()}`);
  if (!run.calls.length) return [...problems, `${at(1)}: no curl ran`];
  const check = (call: Call, stated: Stated, where: string) => {
    const said = `${where} (the call on ${at(call.line)})`;
    if (stated.status !== undefined ? call.status !== stated.status : call.status >= 400 || call.status < 100)
      problems.push(`${said}: status ${call.status}, shown ${stated.status ?? 'a success'}: ${call.body.slice(0, 300)}`);
    for (const name of stated.headers) if (!(name in call.headers)) problems.push(`${said}: no ${name} header`);
    if (stated.body === undefined) return;
    let body: unknown;
    try {
      body = JSON.parse(call.body);
    } catch {
      problems.push(`${said}: the answer is not JSON: ${call.body.slice(0, 300)}`);
      return;
    }
    problems.push(...shapeProblems(stated.body, body).map((p) => `${said}: ${p}`));
  };
  const expectations = expectationsOf(example);
  const stated = new Set<Call>();
  for (const e of expectations) {
    const made = run.calls.filter((c) => c.line >= e.from && c.line <= e.to);
    const lastLine = Math.max(...made.map((c) => c.line));
    const calls = e.each ? made : made.filter((c) => c.line === lastLine);
    if (!calls.length) problems.push(`${at(e.line)}: no call answered the "# →" here`);
    for (const call of calls) {
      check(call, e, at(e.line));
      stated.add(call);
    }
  }
  const last = run.calls.at(-1)!;
  if (example.answer) {
    const where = `${example.file}:${example.answer.line}`;
    check(last, example.answer.kind === 'http' ? parseHttpAnswer(example.answer.text, where) : { headers: [], body: parseShown(example.answer.text) }, where);
    stated.add(last);
  }
  for (const call of run.calls.filter((c) => !stated.has(c))) check(call, { headers: [] }, at(call.line));
  return problems;
}
