/**
 * What every generator of the docs shares: a generated part lives in its page between `<!-- name:start -->` and
 * `<!-- name:end -->`, under a line that names its source; and Markdown table cells and tables written one way.
 */

/** A part of a page made from a source: `make` answers its Markdown. */
export interface GeneratedPart {
  /** The marker's name: `api` for `<!-- api:start -->` … `<!-- api:end -->`. */
  name: string;
  /** Where it is made from, for the reader of the page's source. */
  source: string;
  make: () => string;
}

/** The page with the part between its markers made anew; a page without the markers is an error. */
export function withPart(page: string, part: GeneratedPart, file: string): string {
  const start = `<!-- ${part.name}:start -->`;
  const end = `<!-- ${part.name}:end -->`;
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} has no ${start} … ${end} section`);
  const note = `<!-- made by npm run build from ${part.source}; edit that, not this -->`;
  return `${page.slice(0, from + start.length)}\n${note}\n\n${part.make().trim()}\n\n${page.slice(to)}`;
}

/** A table cell: one line, `|` escaped. */
export const cell = (text = ''): string =>
  text
    .replace(/\s*\n\s*/g, ' ')
    .replaceAll('|', '\\|')
    .trim();

/** A cell in code font, or empty. */
export const code = (text?: string): string => (text ? `\`${cell(text)}\`` : '');

/** A Markdown table, or nothing when it has no rows. */
export function table(head: string[], rows: string[][]): string {
  if (!rows.length) return '';
  return (
    [
      `| ${head.join(' | ')} |`,
      `|${head.map(() => '---').join('|')}|`,
      ...rows.map((r) => `| ${r.join(' | ')} |`),
    ].join('\n') + '\n'
  );
}
