/**
 * The language of an element, after Shoelace's `LocalizeController`: its own `lang`, else the nearest ancestor's,
 * else the page's (`langTagOf`), with the page's `texts` layered over the built-in languages (`layerTexts`). When the
 * page's `<html lang>` changes, every connected element re-renders in the new language: one `MutationObserver`
 * serves them all. (A change of the element's own `lang` is seen by `BillingElement`.)
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { langTagOf, layerTexts, type Lang, type Speech, type TextsOption } from './i18n.js';

type Host = ReactiveControllerHost & HTMLElement & { texts: TextsOption | null };

const connected = new Set<Host>();
let documentLang: MutationObserver | undefined;

export class LocalizeController<T extends object> implements ReactiveController {
  constructor(
    private readonly host: Host,
    /** The element's texts in each built-in language. */
    private readonly builtIn: Record<Lang, T>,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    connected.add(this.host);
    documentLang ??= new MutationObserver(() => connected.forEach((host) => host.requestUpdate()));
    // Observing a document's root again is harmless: its one registration is kept.
    documentLang.observe(this.host.ownerDocument.documentElement, { attributes: true, attributeFilter: ['lang'] });
  }

  hostDisconnected(): void {
    connected.delete(this.host);
  }

  /** The texts and locale in effect now (read on demand, never cached). */
  speech(): Speech<T> {
    return layerTexts(langTagOf(this.host), this.host.texts, this.builtIn);
  }
}
