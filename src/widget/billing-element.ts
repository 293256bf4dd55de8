/**
 * What both elements share: their language (`lang`, followed as it changes), the page's `texts`, the colour `theme`,
 * their readiness (`state`), the frames they may act in (`frame-origins`), and how a failure and a focus move are
 * handled.
 */
import { LitElement, type PropertyDeclarations } from 'lit';
import type { TextsOption } from './i18n.js';
import { Readiness, type ReadyState } from './readiness.js';

export class BillingElement extends LitElement {
  /**
   * The reactive properties, each documented at its field (`static properties`: lighter in the bundle than Lit's
   * decorators); `attribute: false` marks internal state.
   */
  static override properties: PropertyDeclarations = {
    texts: { type: Object },
    theme: { reflect: true },
    frameOrigins: { attribute: 'frame-origins' },
  };

  protected readonly readiness = new Readiness(this);

  /**
   * Texts that replace the built-in ones, for every language (`{labels: {pay: 'Pay now'}}`) or per language tag
   * (`{ru: {labels: {…}, systems: {A: 'Банковская карта'}}, de: {labels: {…}, methods: {…}}}`): a tag that is not built
   * in becomes a language of its own, on top of English. `<billing-pay>` reads the keys `labels`, `kinds`, `problems`,
   * `errors` (per error code), `missing` (no agreement found, per lookup kind) of `TEXTS.en`, and `systems` (names of
   * A, B, C, over `label-a`…); `<billing-payment-methods>` reads `methods` (the keys of `PAYMENT_METHODS_TEXTS.en`)
   * and the label `system_name`. One object may serve both elements. As an attribute: JSON.
   */
  texts: TextsOption | null = null;

  /** The colour scheme: `auto` follows the page's `prefers-color-scheme`; `light` or `dark` forces one. */
  theme: 'light' | 'dark' | 'auto' = 'auto';

  /**
   * The origins (space-separated, `https://portal.example`) whose pages may show this one in a frame and have the
   * element act there (Pay, disabling an autopayment), or `*` for any. Unset, a frame of another origin around the
   * page makes it refuse, with a message to the payer: another site could otherwise lure the payer's clicks
   * onto it. In a browser without `location.ancestorOrigins`, only `*` allows a frame of another origin.
   */
  frameOrigins = '';

  /**
   * Where the element is: `loading` what it shows, `ready` (shown; its ready event, if it has one, has fired, perhaps
   * before the page listened), or `failed` to load it. Read-only; reflected to the `state` attribute.
   */
  get state(): ReadyState {
    return this.readiness.value;
  }

  static override get observedAttributes(): string[] {
    return [...super.observedAttributes, 'lang'];
  }

  override attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    super.attributeChangedCallback(name, old, value);
    if (name === 'lang' && old !== value) this.requestUpdate();
  }

  /** After the next render, focuses the first element `selector` finds in the shadow root. */
  protected async focusLater(selector: string): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }
}
