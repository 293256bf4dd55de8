/**
 * The language of an element, after Shoelace's `LocalizeController`: its own `lang`, else the nearest ancestor's,
 * else the page's (`langTagOf`), with the page's `texts` layered over the built-in languages (`layerTexts`). When the
 * page's `<html lang>` changes, every connected element re-renders in the new language: one `MutationObserver`
 * serves them all. (A change of the element's own `lang` is seen by `BillingElement`.)
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { langTagOf, layerTexts, toLang, type Speech, type TextsOption } from './i18n.js';
import { catalogOf, loadCatalog, type Catalog } from './texts/catalog.js';

type Host = ReactiveControllerHost & HTMLElement & { texts: TextsOption | null };

const connected = new Set<Host>();
let documentLang: MutationObserver | undefined;

export class LocalizeController<T extends object> implements ReactiveController {
  constructor(
    private readonly host: Host,
    /** The element's part of one language's texts. */
    private readonly pick: (catalog: Catalog) => T,
  ) {
    host.addController(this);
  }

  /** Whether the built-in texts of the element's language are here (else `speech()` speaks English for now). */
  get ready(): boolean {
    return catalogOf(this.lang()) !== undefined;
  }

  /** Resolves once the element's language is here (fetched if needed); rejects when its file cannot be had. */
  async loaded(): Promise<void> {
    await loadCatalog(this.lang());
  }

  hostUpdate(): void {
    // The language may have changed since the last update: fetch it, and update again when it is here.
    if (!this.ready)
      void this.loaded().then(
        () => this.host.requestUpdate(),
        () => {},
      );
  }

  private lang() {
    return toLang(langTagOf(this.host).split('-')[0]);
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

  /**
   * The texts and locale in effect now: the language is read on demand, and the texts are layered again only when it,
   * the page's `texts` or the built-in catalog at hand changed (so once per change, not on every render).
   */
  speech(): Speech<T> {
    const tag = langTagOf(this.host);
    const catalog = catalogOf(toLang(tag.split('-')[0])) ?? catalogOf('en')!;
    const texts = this.host.texts;
    const last = this.last;
    if (last?.tag === tag && last.texts === texts && last.catalog === catalog) return last.speech;
    const speech = layerTexts(tag, texts, this.pick(catalog));
    this.last = { tag, texts, catalog, speech };
    return speech;
  }

  private last?: { tag: string; texts: TextsOption | null; catalog: Catalog; speech: Speech<T> };
}
