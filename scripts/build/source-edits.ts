/** Edits of a source's text at the places its syntax tree gives (the build's plugins that rewrite Lit and the widget). */
import ts from 'typescript';

export type Edit = { start: number; end: number; text: string };

/** Every node under `root` that `test` accepts, in source order. */
export function found<T extends ts.Node>(root: ts.Node, test: (node: ts.Node) => node is T): T[] {
  const all: T[] = [];
  const visit = (node: ts.Node): void => {
    if (test(node)) all.push(node);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(root, visit);
  return all;
}

/** `node` replaced by `text`. */
export const replaced = (file: ts.SourceFile, node: ts.Node, text: string): Edit => ({
  start: node.getStart(file),
  end: node.getEnd(),
  text,
});

/** `code` with the edits made (they must not overlap). */
export function applyEdits(code: string, edits: Edit[]): string {
  let out = code;
  for (const { start, end, text } of [...edits].sort((a, b) => b.start - a.start))
    out = out.slice(0, start) + text + out.slice(end);
  return out;
}
