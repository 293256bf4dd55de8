/** Markdown for the bench's results. */
import os from 'node:os';

export function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map((h, i) => (i === 0 ? '---' : '---:'))), ...rows.map(line)].join('\n');
}

/** `12 345` */
export const int = (n: number) => Math.round(n).toLocaleString('en-US').replace(/,/g, ' ');
/** Milliseconds with a precision that suits them. */
export const ms = (n: number) =>
  Number.isNaN(n) ? '–' : n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : n.toFixed(0);
export const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
export const percent = (ratio: number) => `${(ratio * 100).toFixed(0)} %`;

export function machine(): string {
  const cpus = os.cpus();
  const model = cpus[0]?.model.trim() ?? 'unknown CPU';
  return `${cpus.length} × ${model}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

/**
 * `markdown` with the section that `section` starts (its `## N.` heading) put in place of the one of the same number,
 * or added at the end: a run of one section keeps the others' figures.
 */
export function replaceSection(markdown: string, section: string): string {
  const number = /^## (\d+)\./.exec(section)?.[1];
  if (!number) throw new Error('a section starts with its "## N." heading');
  const start = markdown.search(new RegExp(`^## ${number}\\.`, 'm'));
  if (start < 0) return `${markdown.trimEnd()}\n\n${section}\n`;
  const next = markdown.slice(start + 1).search(/^## /m);
  const end = next < 0 ? markdown.length : start + 1 + next;
  return `${markdown.slice(0, start)}${section}\n${next < 0 ? '' : `\n${markdown.slice(end)}`}`;
}
