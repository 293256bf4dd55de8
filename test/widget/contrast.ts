/**
 * Colour contrast of the widget's elements, after WCAG 2.2: the relative luminance of sRGB colours, alpha composited
 * over what is behind, computed from the rendered colours of every text in a shadow root; and axe's own
 * `color-contrast` rule. Used by the accessibility tests of both elements.
 */
import { expect } from '@open-wc/testing';

export type Rgba = [number, number, number, number];

export function parseColor(text: string): Rgba {
  const m = /rgba?\(([\d.]+),?\s*([\d.]+),?\s*([\d.]+)(?:[,/]\s*([\d.]+))?\)/.exec(text);
  if (!m) throw new Error(`Unexpected colour ${text}`);
  return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
}

export const over = (top: Rgba, below: Rgba): Rgba => {
  const a = top[3];
  return [top[0] * a + below[0] * (1 - a), top[1] * a + below[1] * (1 - a), top[2] * a + below[2] * (1 - a), 1];
};

export function luminance([r, g, b]: Rgba): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The element's parent, crossing from a shadow root to its host. */
const parentOf = (node: Element): Element | null =>
  node.parentElement ?? ((node.getRootNode() as ShadowRoot).host || null);

/** The opaque colour behind an element: its own and its ancestors' backgrounds, composited (white canvas last). */
export function backgroundOf(el: Element): Rgba {
  const layers: Rgba[] = [];
  for (let node: Element | null = el; node; node = parentOf(node)) {
    const bg = parseColor(getComputedStyle(node).backgroundColor);
    if (bg[3] > 0) layers.push(bg);
    if (bg[3] === 1) break;
  }
  return layers.reduceRight<Rgba>((below, top) => over(top, below), [255, 255, 255, 1]);
}

interface Measured {
  what: string;
  ratio: number;
}

/** Every element of the shadow DOM that shows text (its own text nodes, or a field's value), with its contrast. */
export function textContrasts(el: HTMLElement): Measured[] {
  const found: Measured[] = [];
  for (const node of el.shadowRoot!.querySelectorAll<HTMLElement>('*')) {
    const ownText = [...node.childNodes].some((c) => c.nodeType === Node.TEXT_NODE && c.textContent!.trim());
    const value =
      (node instanceof HTMLInputElement && !['radio', 'checkbox'].includes(node.type) && node.value) ||
      node instanceof HTMLSelectElement;
    if (!(ownText || value) || (node as HTMLInputElement).disabled || !node.getClientRects().length) continue;
    const background = backgroundOf(node);
    const color = over(parseColor(getComputedStyle(node).color), background);
    found.push({
      what: `${node.tagName.toLowerCase()}${node.className ? `.${node.className.trim().replace(/\s+/g, '.')}` : ''} "${(node.textContent || (node as HTMLInputElement).value).trim().slice(0, 30)}"`,
      ratio: contrast(color, background),
    });
  }
  return found;
}

export function expectContrast(el: HTMLElement, minimum = 4.5): void {
  const measured = textContrasts(el);
  expect(measured.length).to.be.greaterThan(5);
  const low = measured.filter((m) => m.ratio < minimum).map((m) => `${m.what}: ${m.ratio.toFixed(2)}`);
  expect(low, `text below ${minimum}:1`).to.deep.equal([]);
}

/** axe's colour-contrast rule alone: it must pass on the text it can judge, and judge most of it. */
export async function axeContrast(el: HTMLElement): Promise<{ passes: number; incomplete: string[] }> {
  const { axe } = window as unknown as { axe: { run(el: Element, o: object): Promise<AxeResults> } };
  const results = await axe.run(el, { runOnly: ['color-contrast'] });
  expect(
    results.violations.flatMap((v) => v.nodes.map((n) => n.html)),
    'axe color-contrast violations',
  ).to.deep.equal([]);
  return {
    passes: results.passes.reduce((n, r) => n + r.nodes.length, 0),
    incomplete: results.incomplete.flatMap((r) => r.nodes.map((n) => n.html)),
  };
}

interface AxeResults {
  violations: { nodes: { html: string }[] }[];
  passes: { nodes: { html: string }[] }[];
  incomplete: { nodes: { html: string }[] }[];
}

/** Loads axe into the page (chai-a11y-axe does on its first use), for `axeContrast`. */
export async function loadAxe(): Promise<void> {
  const probe = document.body.appendChild(document.createElement('p'));
  probe.textContent = 'axe';
  try {
    await expect(probe).to.be.accessible();
  } finally {
    probe.remove();
  }
}
