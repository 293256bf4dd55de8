import { html, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { BillingElement } from './billing-element.js';
import sharedStyles from './billing-element.styles.js';
import styles from './billing-payment-methods.styles.js';
import { emit } from './events.js';
import { fill, type FirstTexts, type PaymentMethodsTexts } from './i18n.js';
import { LocalizeController } from './localize.js';
import { METHODS_EN } from './texts/en-methods.js';
import { framedError, framingRefused } from './framing.js';
import { errorText } from './error-text.js';
import { toPayError, type PayError } from './pay-error.js';
import type { ReadyState } from './readiness.js';
import { disablePaymentMethod, fetchPaymentMethods, type SavedPaymentMethod } from './session-client.js';

/** What `<billing-payment-methods>` says: its own texts, and the labels it shares with `<billing-pay>`. */
interface PaymentMethodsSpeech {
  labels: FirstTexts['labels'];
  methods: PaymentMethodsTexts;
}

/** Where the list is: waiting for its request (or for `relay` and `session`), shown, or failed to load. */
export type PaymentMethodsState = ReadyState;

/**
 * The logged-in client's saved payment methods, with a way to switch their autopayment off. The merchant's backend
 * signs a short-lived client session naming the agreement; the element sends it to the relay and shows only that
 * agreement's methods. Disabling asks for confirmation in place ("Disable" / "Keep") and then updates the list.
 *
 * Languages and theming are those of `<billing-pay>`: `lang` (or the page's language), a `texts` property or JSON
 * attribute that replaces any text or adds a language (its texts under `methods`, so one object can serve both
 * elements), `theme="light|dark|auto"`, the same `--billing-pay-*` custom properties.
 *
 * @summary The client's saved payment methods and their autopayments, with "Disable autopayment".
 *
 * @fires billing-payment-methods-change - A method was disabled. Detail: the updated list of methods
 *   (`{id, autopayment, title?, method?, system?, …}[]`).
 * @fires billing-payment-methods-error - The list could not be loaded or a method could not be disabled. Detail:
 *   `{code, message}`; `code` is `session_invalid` when the session has expired.
 *
 * @csspart base - The panel around everything.
 * @csspart list - The list of methods.
 * @csspart method - Each method (list item).
 * @csspart title - A method's name, such as its masked card.
 * @csspart kind - A method's kind and payment system.
 * @csspart autopay - A method's autopayment state.
 * @csspart button - Every button.
 * @csspart disable - Each "Disable autopayment" button.
 * @csspart confirm - The confirmation step of one method (a group).
 * @csspart question - The confirmation question.
 * @csspart confirm-button - The "Disable" button of the confirmation.
 * @csspart keep-button - The "Keep" button of the confirmation.
 * @csspart status - The live region: loading, empty, progress, the outcome and errors.
 * @csspart retry - The "Try again" button after a failed load.
 *
 * @cssprop [--billing-pay-font-family=system-ui, sans-serif] - Font family (the page's own font does not reach in).
 * @cssprop [--billing-pay-font-size=1em] - Base font size.
 * @cssprop [--billing-pay-color-text=#1b1f27] - Text colour (dark scheme: #e7e9ee).
 * @cssprop [--billing-pay-color-muted=#535b69] - A method's kind and state (dark: #aab1bd).
 * @cssprop [--billing-pay-color-background=#ffffff] - Background of the panel (dark: #181b21).
 * @cssprop [--billing-pay-color-border=#767f8e] - The lines between methods (dark: #8a93a3).
 * @cssprop [--billing-pay-color-accent=#1d5bc7] - Buttons (dark: #8db4ff).
 * @cssprop [--billing-pay-color-accent-text=#ffffff] - Text on the accent colour (dark: #0b1020).
 * @cssprop [--billing-pay-color-error=#b3261e] - Errors (dark: #ffb4ab).
 * @cssprop [--billing-pay-color-focus=#1d5bc7] - The focus ring (dark: #8db4ff).
 * @cssprop [--billing-pay-radius=0.5rem] - Corner radius.
 * @cssprop [--billing-pay-spacing=1rem] - Space between methods and around the panel.
 * @cssprop [--billing-pay-max-width=28rem] - The widest the element grows.
 *
 * @attr state - Where the element is, reflected from the `state` property for a page and its CSS to read (setting it
 *   does nothing): `loading`, `ready` or `failed`.
 * @attr lang - The language (the standard attribute): `ru` and `en` are built in, any other needs `texts` for it; when
 *   absent, the closest ancestor's or the page's language (followed as `<html lang>` changes).
 */
export class BillingPaymentMethods extends BillingElement {
  static override styles = [sharedStyles, styles];

  /** Lit's reactive properties, each documented at its field (see `BillingElement.properties`). */
  static override properties: PropertyDeclarations = {
    methods: { attribute: false },
    confirming: { attribute: false },
    disabling: { attribute: false },
    failure: { attribute: false },
    done: { attribute: false },
    relay: {},
    session: {},
  };

  private readonly localize = new LocalizeController(this, (catalog): PaymentMethodsSpeech => ({
    labels: catalog.pay.labels,
    // English is this element's own (a language file carries both elements' texts).
    methods: catalog.methods ?? METHODS_EN,
  }));

  /** Aborts the request in flight (the list or a disable), when the element is removed for one. */
  private abort?: AbortController;
  /** A request was cut short by removal: the list is read again when the element comes back. */
  private interrupted = false;

  private methods: SavedPaymentMethod[] = [];
  /** The method whose confirmation step is shown. */
  private confirming: number | null = null;
  /** The method being disabled right now. */
  private disabling: number | null = null;
  /** The last failure, shown in the status region. */
  private failure: PayError | null = null;
  /** What the last disable did, for the live region: the method's name. */
  private done = '';

  /** Base URL of the relay: the element reads `{relay}/payment-methods` and disables through it. */
  relay = '';

  /**
   * The client session the merchant's backend signed for the logged-in client (sent as
   * `Authorization: Bearer <session>`). Until `relay` and `session` are both set, the element shows the loading state.
   */
  session = '';

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.hasUpdated && (this.interrupted || this.state !== 'ready')) void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.abort) this.interrupted = true;
    this.abort?.abort();
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('relay') || changed.has('session')) void this.load();
  }

  /** A fresh controller for the next request; the previous one is aborted. */
  private begin(): AbortController {
    this.abort?.abort();
    this.interrupted = false;
    return (this.abort = new AbortController());
  }

  private async load(): Promise<void> {
    const controller = this.begin();
    this.readiness.set('loading');
    this.failure = null;
    this.confirming = this.disabling = null;
    this.done = '';
    if (!this.relay || !this.session) return;
    try {
      [this.methods] = await Promise.all([
        fetchPaymentMethods(this.relay, this.session, controller.signal),
        this.localize.loaded(),
      ]);
      this.readiness.set('ready');
    } catch (error) {
      if (controller.signal.aborted) return;
      this.fail(error, 'error_load');
    } finally {
      if (this.abort === controller) this.abort = undefined;
    }
  }

  private onDisable = (e: Event) => {
    this.done = '';
    if (this.refuseFramed()) return;
    this.confirming = this.idOf(e);
    this.failure = null;
    void this.focusLater('.keep');
  };

  /** Inside a frame of another site, nothing is disabled: the payer is told why (see `frame-origins`). */
  private refuseFramed(): boolean {
    if (!framingRefused(this.frameOrigins)) return false;
    this.confirming = null;
    this.failure = framedError();
    void this.focusLater('.status');
    return true;
  }

  private onKeep = () => {
    if (this.disabling !== null) return;
    const id = this.confirming;
    this.confirming = null;
    void this.focusLater(`[data-id="${id}"].disable`);
  };

  private onConfirmKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') this.onKeep();
  };

  private onConfirm = async (e: Event) => {
    const id = this.idOf(e);
    if (this.disabling !== null) return;
    const index = this.methods.findIndex((m) => m.id === id);
    const method = this.methods[index];
    if (!method || this.refuseFramed()) return;
    const controller = this.begin();
    this.disabling = id;
    try {
      this.methods = await disablePaymentMethod(this.relay, this.session, id, controller.signal);
      this.confirming = this.disabling = null;
      this.done = this.titleOf(method, this.localize.speech().t.methods);
      emit(this, 'billing-payment-methods-change', this.methods);
      // The focus goes where the disabled method was: the next method's button, else the last one's, else the status.
      await this.updateComplete;
      const buttons = this.renderRoot.querySelectorAll<HTMLElement>('.disable');
      (buttons[index] ?? buttons[buttons.length - 1] ?? this.statusElement())?.focus();
    } catch (error) {
      if (controller.signal.aborted) return;
      this.confirming = null;
      this.fail(error, 'error_disable');
      // Gone already (disabled in another tab, say): it leaves the list, and the focus goes to the message.
      const gone = this.failure?.code === 'not_found';
      if (gone) this.methods = this.methods.filter((m) => m.id !== id);
      void this.focusLater(gone ? '.status' : `[data-id="${id}"].disable`);
    } finally {
      this.disabling = null;
      if (this.abort === controller) this.abort = undefined;
    }
  };

  private idOf(e: Event): number {
    return Number((e.currentTarget as HTMLElement).dataset.id);
  }

  /** Shows a failure and tells the page; an expired session replaces the list, as nothing else can work. */
  private fail(error: unknown, fallback: 'error_load' | 'error_disable'): void {
    const failure = (this.failure = toPayError(error));
    const expired = failure.code === 'session_invalid';
    if (expired || fallback === 'error_load') this.readiness.set('failed');
    emit(this, 'billing-payment-methods-error', {
      code: failure.code,
      message: this.failureText(this.localize.speech().t, fallback),
    });
    if (expired) void this.focusLater('.status');
  }

  private failureText(
    { methods: t }: PaymentMethodsSpeech,
    fallback: 'error_load' | 'error_disable' = this.state === 'failed' ? 'error_load' : 'error_disable',
  ): string {
    if (!this.failure) return t[fallback];
    const texts = {
      session_invalid: t.error_session,
      timeout: t.error_timeout,
      network_error: t.error_network,
      not_found: fallback === 'error_disable' ? t.error_gone : undefined,
      framed: t.error_framed,
    };
    return errorText(texts, this.failure, this.localize.speech().locale, t[fallback]);
  }

  private statusElement(): HTMLElement | null {
    return this.renderRoot.querySelector<HTMLElement>('.status');
  }

  /** The name a person knows the method by: its title or masked card, else its number. */
  private titleOf(m: SavedPaymentMethod, t: PaymentMethodsTexts): string {
    const card = m.card_last4 ? `${m.card_brand ?? ''} •••• ${m.card_last4}`.trim() : '';
    return String(m.title || m.card_mask || m.masked_pan || card || fill(t.method, { id: String(m.id) }));
  }

  private kindOf(m: SavedPaymentMethod, { labels, methods: t }: PaymentMethodsSpeech): string {
    const kind = m.method === 'bank_card' ? t.bank_card : m.method;
    const system = m.system ? fill(labels.system_name, { id: String(m.system) }) : '';
    return [kind, system].filter(Boolean).join(' · ');
  }

  private statusText(speech: PaymentMethodsSpeech): string {
    const t = speech.methods;
    // Nothing in English while the page's language is on its way.
    if (this.state === 'loading') return this.localize.ready ? t.loading : '';
    if (this.failure) return this.failureText(speech);
    if (this.disabling !== null) return t.disabling;
    const done = this.done ? fill(t.disabled, { title: this.done }) : '';
    return [done, this.state === 'ready' && !this.methods.length ? t.empty : ''].filter(Boolean).join(' ');
  }

  private renderMethod(m: SavedPaymentMethod, speech: PaymentMethodsSpeech): TemplateResult {
    const t = speech.methods;
    const title = this.titleOf(m, t);
    const kind = this.kindOf(m, speech);
    const busy = this.disabling !== null;
    let action: TemplateResult | typeof nothing = nothing;
    if (this.confirming === m.id) {
      action = html`<div class="confirm" part="confirm" role="group" aria-labelledby="q-${m.id}" @keydown=${this.onConfirmKey}>
        <p id="q-${m.id}" part="question">${fill(t.question, { title })}</p>
        <div class="actions">
          <button
            type="button"
            part="button confirm-button"
            data-id=${m.id}
            aria-label=${fill(t.disable_for, { title })}
            aria-disabled=${busy ? 'true' : 'false'}
            @click=${this.onConfirm}
          >
            ${t.confirm}
          </button>
          <button
            type="button"
            class="keep secondary"
            part="button keep-button"
            aria-label=${fill(t.keep_for, { title })}
            aria-disabled=${busy ? 'true' : 'false'}
            @click=${this.onKeep}
          >
            ${t.keep}
          </button>
        </div>
      </div>`;
    } else if (m.autopayment) {
      action = html`<button
        type="button"
        class="disable secondary"
        part="button disable"
        data-id=${m.id}
        aria-label=${fill(t.disable_for, { title })}
        ?disabled=${busy}
        @click=${this.onDisable}
      >
        ${t.disable}
      </button>`;
    }
    return html`<li part="method">
      <span class="title" part="title">${title}</span>
      ${kind ? html`<span class="kind" part="kind">${kind}</span>` : nothing}
      <span class="autopay ${m.autopayment ? 'on' : ''}" part="autopay">${m.autopayment ? t.autopay_on : t.autopay_off}</span>
      ${action}
    </li>`;
  }

  override render(): TemplateResult {
    const { locale, t: speech } = this.localize.speech();
    const t = speech.methods;
    const failed = this.failure !== null;
    const list = this.state === 'ready' && this.methods.length;
    const retry = this.state === 'failed' && this.failure?.code !== 'session_invalid';
    return html`<div class="panel" part="base" lang=${locale}>
      ${
        list
          ? html`<ul part="list" aria-label=${t.list}>
            ${this.methods.map((m) => this.renderMethod(m, speech))}
          </ul>`
          : nothing
      }
      <p class="status ${failed ? 'error' : ''}" part="status" role="status" tabindex="-1">${this.statusText(speech)}</p>
      ${retry ? html`<button type="button" part="button retry" @click=${this.load}>${t.retry}</button>` : nothing}
    </div>`;
  }
}
