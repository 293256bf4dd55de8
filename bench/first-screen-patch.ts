/**
 * Imported before the widget by bench/first-screen-html.ts: the first update that draws the ready form writes the
 * form's HTML from the `TemplateResult`s its `render()` returns (the build's compiled templates: their HTML and
 * parts) and sets it into the shadow root at once, in place of Lit making, cloning and filling its templates. Later
 * updates are Lit's.
 */
import { LitElement, ReactiveElement, nothing, type PropertyValues } from 'lit';
import type { CompiledTemplate, CompiledTemplateResult } from 'lit-html';
import { _$LH } from 'lit-html/private-ssr-support.js';

type Drawn = LitElement & { state?: string; benchDrawn?: boolean; render(): unknown };
const lit = LitElement.prototype as unknown as { update(this: Drawn, changed: PropertyValues): void };
const litUpdate = lit.update;
const reactiveUpdate = (ReactiveElement.prototype as unknown as typeof lit).update;

lit.update = function (changed) {
  if (this.benchDrawn || this.state !== 'ready') return litUpdate.call(this, changed);
  this.benchDrawn = true;
  const html = htmlOf(this.render());
  reactiveUpdate.call(this, changed);
  (this.renderRoot as ShadowRoot).innerHTML = html;
};

/** The part classes the build's compiled templates name (`ctor` of an attribute part). */
const { PropertyPart, BooleanAttributePart, EventPart } = _$LH;
const CHILD_PART = 2;
const ATTRIBUTE_PART = 1;
const ELEMENT_PART = 6;

const escape = (text: unknown) =>
  String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Where each node of a template's HTML (elements and comments, in tree order) ends, and an element's start tag. */
const nodesOf = new WeakMap<CompiledTemplate, { tagEnd: number; end: number }[]>();
function nodes(template: CompiledTemplate) {
  let found = nodesOf.get(template);
  if (!found) {
    found = [];
    for (const m of template.h[0]!.matchAll(/<!--[\s\S]*?-->|<\?>|<[a-zA-Z][^>]*>/g)) {
      const end = m.index + m[0].length;
      found.push({ tagEnd: end - (m[0].endsWith('/>') ? 2 : 1), end });
    }
    nodesOf.set(template, found);
  }
  return found;
}

/**
 * The HTML of a value as Lit would draw it (input values and checks as attributes, no listeners, no markers): Lit draws
 * nothing for `nothing`, `null`, `undefined` and `''`, and any other primitive as its text.
 */
function htmlOf(value: unknown): string {
  if (value === nothing || value == null || value === '') return '';
  if (Array.isArray(value)) return value.map(htmlOf).join('');
  if (typeof value !== 'object') return escape(value);
  const { _$litType$: template, values } = value as CompiledTemplateResult;
  if (typeof template !== 'object') throw new Error('bench: a template the build did not compile');
  const h = template.h[0]!;
  const at = nodes(template);
  const inserts: [number, string][] = [];
  let next = 0;
  for (const part of template.parts) {
    const node = at[part.index]!;
    if (part.type === CHILD_PART) inserts.push([node.end, htmlOf(values[next++])]);
    if (part.type === ELEMENT_PART) next++;
    if (part.type !== ATTRIBUTE_PART) continue;
    const taken = values.slice(next, (next += part.strings.length - 1));
    const kind = part.ctor as unknown;
    const [first] = taken;
    if (kind === EventPart || taken.includes(nothing)) continue;
    if (kind === BooleanAttributePart || (kind === PropertyPart && part.name === 'checked')) {
      if (first) inserts.push([node.tagEnd, ` ${part.name}`]);
    } else if (kind === PropertyPart) {
      if (part.name === 'value') inserts.push([node.tagEnd, ` value="${escape(first ?? '')}"`]);
    } else {
      const text = part.strings.reduce((all, s, i) => all + String(taken[i - 1] ?? '') + s);
      inserts.push([node.tagEnd, ` ${part.name}="${escape(text)}"`]);
    }
  }
  inserts.sort((a, b) => a[0] - b[0]);
  let html = '';
  let from = 0;
  for (const [to, text] of inserts) {
    html += h.slice(from, to) + text;
    from = to;
  }
  return html + h.slice(from);
}
