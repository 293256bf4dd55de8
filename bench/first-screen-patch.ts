/**
 * Imported before the widget by bench/first-screen-html.ts: the first update that draws the ready form sets the
 * page's `window.benchFirstScreen` (the form's own HTML, taken from a real load) as the shadow root's content, in
 * place of Lit's render (making, cloning and filling its templates). Later updates are Lit's.
 */
import { LitElement, ReactiveElement, type PropertyValues } from 'lit';

type Drawn = LitElement & { state?: string; benchDrawn?: boolean };
const lit = LitElement.prototype as unknown as { update(this: Drawn, changed: PropertyValues): void };
const litUpdate = lit.update;
const reactiveUpdate = (ReactiveElement.prototype as unknown as typeof lit).update;

lit.update = function (changed) {
  const html = (window as { benchFirstScreen?: string }).benchFirstScreen;
  if (!html || this.benchDrawn || this.state !== 'ready') return litUpdate.call(this, changed);
  this.benchDrawn = true;
  reactiveUpdate.call(this, changed);
  (this.renderRoot as ShadowRoot).innerHTML = html;
};
