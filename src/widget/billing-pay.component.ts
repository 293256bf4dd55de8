import { html, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { canonicalAmount } from '../eps/amount.js';
import type { SystemId } from '../eps/systems.js';
import { formatAmount, parseAmountInput } from './amount-input.js';
import { BillingElement } from './billing-element.js';
import sharedStyles from './billing-element.styles.js';
import { ConfigLoader, type LoadedConfig } from './config-loader.js';
import { formFields, statusText, systemName, type FieldsContext } from './billing-pay-fields.js';
import styles from './billing-pay.styles.js';
import { emit } from './events.js';
import { failureText, problemText } from './failure-text.js';
import { checkForm, firstProblemField, formView, NO_VALUES, PATH_OF, withoutProblems } from './form-model.js';
import type { FormCheck, FormInput, FormView, ValueKey } from './form-model.js';
import { LocalizeController } from './localize.js';
import { PaymentReturn, returnText } from './payment-return.js';
import { PaymentSender, type SubmitState } from './payment-sender.js';

export type { SubmitState } from './payment-sender.js';
import type { PaymentOptions } from '../eps/relay-api.js';
import { PayError } from './pay-error.js';

/**
 * A payment form for a merchant's page: the client picks a payment system, enters an amount and how to find their
 * agreement, may save the payment method (which connects autopayments), and is sent to the payment system's own page.
 * It talks only to the merchant's relay and never shows or touches card data.
 *
 * @summary Pay into a billing agreement through payment system A, B or C, optionally connecting autopayments.
 *
 * @fires billing-pay-ready - `/config` is loaded and the form is shown; once per element, the first time. Detail:
 *   `{systems, lookups, maxAmount}`. A page that may listen too late reads `state` instead.
 * @fires billing-pay-submit - A valid payment is about to be sent to the relay. Detail: the request body. Cancelable:
 *   when cancelled, nothing is sent and the form stays as it is.
 * @fires billing-pay-redirect - The relay answered the payment page. Detail: `{url}`. Cancelable: when cancelled, the
 *   widget does not navigate.
 * @fires billing-pay-error - The form is invalid, the relay refused, or it could not be reached (also when `/config`
 *   fails: `network_error`, `timeout`, `origin_not_allowed` — the page's origin is not in the relay's `ALLOWED_ORIGINS`,
 *   with the fix in the console — or the relay's code). Detail: `{code, message, fields?}`.
 * @fires billing-pay-return - The payer came back, in the same tab, to the page they left for the payment page, and the
 *   element says so (once; after the page's scripts could listen, else read `paymentReturn`). Detail: `{system, amount,
 *   lookup, agreement, paymentId, outcome, time}`; `outcome` is `sent` (the balance changes once the system confirms
 *   it), or `not_completed` when the payer came back by the failure address the widget gives B.
 *
 * @csspart form - The form.
 * @csspart return - The message when the payer comes back from the payment page (a live region; empty otherwise).
 * @csspart systems - The fieldset of the payment system radios.
 * @csspart legend - The legend of the payment system group.
 * @csspart radio - Each payment system radio.
 * @csspart field - Each labelled field (label, control and error).
 * @csspart label - Each field's label.
 * @csspart input - Each text field.
 * @csspart select - The lookup kind chooser.
 * @csspart checkbox - Each checkbox.
 * @csspart hint - A hint under a field, and the autopayment disclosure under "Connect autopayments".
 * @csspart link - Each link of the autopayment disclosure (`methods-url`, `autopay-terms-url`).
 * @csspart preset - The preset agreement the payment goes to.
 * @csspart error - An error next to its field.
 * @csspart status - The live region: progress and errors of the whole form.
 * @csspart button - The Pay button, and "Try again" when the payment options could not be loaded.
 * @csspart note - The note under the button.
 *
 * @cssprop [--billing-pay-font-family=the page's font] - Font family.
 * @cssprop [--billing-pay-font-size=1em] - Base font size.
 * @cssprop [--billing-pay-color-text=#1b1f27] - Text colour (dark scheme: #e7e9ee).
 * @cssprop [--billing-pay-color-muted=#535b69] - Hints and notes (dark: #aab1bd).
 * @cssprop [--billing-pay-color-background=#ffffff] - Background of the form (dark: #181b21).
 * @cssprop [--billing-pay-color-field=#ffffff] - Background of the fields (dark: #20242c).
 * @cssprop [--billing-pay-color-border=#767f8e] - Field borders (dark: #8a93a3).
 * @cssprop [--billing-pay-color-accent=#1d5bc7] - Button and selected controls (dark: #8db4ff).
 * @cssprop [--billing-pay-color-accent-text=#ffffff] - Text on the accent colour (dark: #0b1020).
 * @cssprop [--billing-pay-color-error=#b3261e] - Errors (dark: #ffb4ab).
 * @cssprop [--billing-pay-color-focus=#1d5bc7] - The focus ring (dark: #8db4ff).
 * @cssprop [--billing-pay-radius=0.5rem] - Corner radius.
 * @cssprop [--billing-pay-spacing=1rem] - Space between fields and around the form.
 * @cssprop [--billing-pay-max-width=28rem] - The widest the element grows.
 *
 * @attr state - Where the element is, reflected from the `state` property for a page and its CSS to read (setting it
 *   does nothing): `loading` its relay's `/config`, `ready` (`billing-pay-ready` has fired) or `failed`.
 * @attr lang - The language (the standard attribute): `ru` and `en` are built in, any other needs `texts` for it; when
 *   absent, the closest ancestor's or the page's language (followed as `<html lang>` changes). Amounts are read and written in its number format (`Intl`).
 */
export class BillingPay extends BillingElement {
  static override styles = [sharedStyles, styles];

  /** Lit's reactive properties, each documented at its field (see `BillingElement.properties`). */
  static override properties: PropertyDeclarations = {
    config: { attribute: false },
    submitState: { attribute: false },
    failure: { attribute: false },
    problems: { attribute: false },
    chosenSystem: { attribute: false },
    chosenKind: { attribute: false },
    values: { attribute: false },
    save: { attribute: false },
    linkOnly: { attribute: false },
    sessionAgreement: { attribute: false },
    relay: {},
    systems: {},
    amount: {},
    amountFixed: { type: Boolean, attribute: 'amount-fixed' },
    lookup: {},
    agreement: {},
    session: {},
    returnUrl: { attribute: 'return-url' },
    email: {},
    phone: {},
    labelA: { attribute: 'label-a' },
    labelB: { attribute: 'label-b' },
    labelC: { attribute: 'label-c' },
    currency: {},
    allowLinkOnly: { type: Boolean, attribute: 'allow-link-only' },
    methodsUrl: { attribute: 'methods-url' },
    autopayTermsUrl: { attribute: 'autopay-terms-url' },
  };

  private readonly localize = new LocalizeController(this, (catalog) => catalog.pay);

  private readonly loader = new ConfigLoader(this);
  private readonly sender = new PaymentSender(this);
  private readonly returned = new PaymentReturn(this);

  /** The locale the amount text was last shown in. */
  private shownLocale?: string;

  /** The relay's `/config`, once loaded. */
  private config: PaymentOptions | null = null;
  /** Where the current submit is. */
  private submitState: SubmitState = 'idle';
  /** The last failure (with its cause), shown in the status region. */
  private failure: PayError | null = null;
  /** Field path (`amount`, `eps_params.email`, …) → problem key, or a text from the relay. */
  private problems: Record<string, string> = {};
  private chosenSystem: SystemId | null = null;
  private chosenKind: number | null = null;
  private values: Record<ValueKey, string> = { ...NO_VALUES };
  private save = false;
  private linkOnly = false;
  /** The agreement the client session names (found by its ID), once loaded. */
  private sessionAgreement = '';

  /** Base URL of the relay: the widget reads `{relay}/config` and posts to `{relay}/payments`. */
  relay = '';

  /** Which of the systems `A B C` to offer, in this order (space-separated); default: all the relay offers. */
  systems = '';

  /** A preset amount (`1500.50`). */
  amount = '';

  /** With a preset `amount`, the client cannot change it. */
  amountFixed = false;

  /** The kinds of value (`agreement_param_id`) by which the client may find the agreement, e.g. `"5 7"`. */
  lookup = '5';

  /** A preset lookup value (of the first `lookup` kind): the client does not type it. */
  agreement = '';

  /**
   * A client session signed by the merchant's backend for the logged-in client: the agreement it names is preset
   * (lookup kind 11), so the client types only the amount. A preset `agreement` wins; an invalid session is ignored.
   */
  session = '';

  /**
   * Where the client comes back after paying (the page must hold a `<billing-pay>` to say the return), absolute or
   * relative to the page, on one of the relay's `ALLOWED_ORIGINS`; default: the current page.
   */
  returnUrl = '';

  /** A preset e-mail for the receipt. */
  email = '';

  /** A preset phone number for the receipt. */
  phone = '';

  /** The merchant's name for system A in every language (`texts.systems` names it per language); default "System A". */
  labelA = '';

  /** The merchant's name for system B; default "System B". */
  labelB = '';

  /** The merchant's name for system C; default "System C". */
  labelC = '';

  /** A currency name for the Amount label only (the billing names none, so none is assumed). */
  currency = '';

  /** Offer "Only link the card (no charge)" with a saved method, where the system can (A). */
  allowLinkOnly = false;

  /**
   * The merchant's page where the payer switches autopayments off (one with `<billing-payment-methods>`), linked from
   * the autopayment disclosure; without it, the disclosure says to contact the shop. An http(s) address, absolute or
   * relative to the page; any other (`javascript:`…) is ignored.
   */
  methodsUrl = '';

  /** The merchant's autopayment terms, linked from the autopayment disclosure; checked as `methods-url`. */
  autopayTermsUrl = '';

  /** The payer's return this element said (the detail of `billing-pay-return`, once fired), else `null`. Read-only. */
  get paymentReturn() {
    return this.returned.fired;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('pageshow', this.onPageShow);
    if (this.hasUpdated && this.state !== 'ready') void this.loadConfig();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('pageshow', this.onPageShow);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const { locale } = this.localize.speech();
    if (changed.has('amount')) {
      const canonical = canonicalAmount(this.amount);
      this.values = { ...this.values, amount: canonical ? formatAmount(canonical, locale) : this.amount };
    } else if (this.shownLocale && locale !== this.shownLocale) {
      // Keep a readable amount readable when the language (and so the decimal mark) changes.
      const parsed = parseAmountInput(this.values.amount, this.shownLocale);
      if (parsed.ok) this.values = { ...this.values, amount: formatAmount(parsed.amount, locale) };
    }
    this.shownLocale = locale;
    if (changed.has('email')) this.values = { ...this.values, email: this.email };
    if (changed.has('phone')) this.values = { ...this.values, phone: this.phone };
    // "Correct the highlighted fields" goes with the last field's error (the live region falls silent).
    if (this.failure?.fields && !Object.keys(this.problems).length) this.submitState = 'idle';
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('relay') || changed.has('session')) void this.loadConfig();
  }

  private async loadConfig(retry = false): Promise<void> {
    this.config = null;
    if (!this.relay) {
      this.loader.cancel();
      this.readiness.set('failed');
      return;
    }
    this.readiness.set('loading');
    let loaded: LoadedConfig | null;
    try {
      // The form is shown in the payer's language, never in English first.
      [loaded] = await Promise.all([this.loader.load(this.relay, this.session, { retry }), this.localize.loaded()]);
    } catch (error) {
      this.readiness.set('failed');
      this.report(error as PayError, true);
      return;
    }
    if (!loaded) return;
    this.sessionAgreement = loaded.sessionAgreement;
    this.config = loaded.config;
    const first = this.readiness.set('ready');
    await this.updateComplete;
    if (!first) return;
    this.sender.prefetch();
    const { systems, kinds } = this.view();
    emit(this, 'billing-pay-ready', {
      systems: systems.map((s) => s.id),
      lookups: kinds,
      maxAmount: loaded.config.maxAmount,
    });
  }

  /** "Try again" after `/config` failed: at once the first time, then each time later (`ConfigLoader`). */
  private onRetry = () => {
    void this.loadConfig(true);
  };

  /**
   * Back from the payment page through the back/forward cache: the form is usable again, and the attempt is not a
   * return (the payment system did not send the payer here).
   */
  private onPageShow = (e: PageTransitionEvent) => {
    if (!e.persisted) return;
    this.returned.forget();
    if (this.submitState === 'redirecting') this.submitState = 'idle';
  };

  private onSystem = (e: Event) => {
    this.chosenSystem = (e.target as HTMLInputElement).value as SystemId;
  };

  private onKind = (e: Event) => {
    this.chosenKind = Number((e.target as HTMLSelectElement).value);
    this.problems = withoutProblems(this.problems, 'agreement_param_id', 'agreement_param_value');
  };

  /**
   * Typing into a text field (`input`), and leaving it changed (`change`, which an untouched field does not fire): the
   * field is checked by the model when the payer leaves it after an edit; an error it shows follows what they type,
   * and goes once the value is valid (an error from the relay, at the first edit).
   */
  private onInput = (e: Event) => {
    const { name, value } = e.target as HTMLInputElement;
    const path = PATH_OF[name as ValueKey];
    if (e.type === 'input') {
      this.values = { ...this.values, [name]: value };
      if (!this.problems[path]) return;
    }
    const v = this.view();
    // No form, no check: Chromium fires `change` at a changed field as the form is taken away (config reloading).
    const problem = v.system && (this.checkAll(v) as Partial<FormCheck & { ok: false }>).problems?.[path];
    this.problems = problem ? { ...this.problems, [path]: problem } : withoutProblems(this.problems, path);
  };

  /** `return-url` resolved against the page (a relative one too), else the page itself; as typed when unparsable. */
  private returnAddress(): string {
    try {
      return new URL(this.returnUrl || location.href, document.baseURI).href;
    } catch {
      return this.returnUrl;
    }
  }

  /** The model's check of the whole form (form-model.ts); the element holds each part of `FormInput` by its name. */
  private checkAll(v: FormView): FormCheck {
    const returnUrl = this.returnAddress();
    return checkForm(v, this as unknown as FormInput, {
      locale: this.localize.speech().locale,
      returnUrl,
      failUrl: this.returned.failUrl(returnUrl),
    });
  }

  private onSave = (e: Event) => {
    this.save = (e.target as HTMLInputElement).checked;
  };

  private onLinkOnly = (e: Event) => {
    this.linkOnly = (e.target as HTMLInputElement).checked;
  };

  private onSubmit = (e: Event) => {
    e.preventDefault();
    void this.pay();
  };

  /** What the form shows now (form-model.ts), from the element's own `FormInput` parts. */
  private view(): FormView {
    return formView(this as unknown as FormInput);
  }

  /**
   * One press of Pay, after Adyen Web's `UIElement.submit`: an invalid form shows its problems and stops; a valid one
   * is announced (`billing-pay-submit`, cancelable), sent and its answer verified (`PaymentSender`), announced again
   * (`billing-pay-redirect`, cancelable) and followed.
   */
  private async pay(): Promise<void> {
    const v = this.view();
    if (this.busy || !this.config || !v.system) return;
    this.returned.clear();
    this.submitState = 'validating';
    const form = this.checkAll(v);
    if (!form.ok) {
      this.problems = form.problems;
      this.report(new PayError('validation', 'validation_failed', 'The form is not valid.', { fields: form.problems }));
      return;
    }
    this.problems = {};
    this.failure = null;
    // A copy: a listener reads what is sent, and cannot change it after the check.
    if (!emit(this, 'billing-pay-submit', structuredClone(form.request), { cancelable: true })) {
      this.submitState = 'idle';
      return;
    }
    this.submitState = 'sending';
    let sent;
    try {
      sent = await this.sender.send(this.relay, form.request);
    } catch (error) {
      const failure = error as PayError;
      if (failure.fields) this.problems = { ...failure.fields };
      this.report(failure);
      return;
    }
    if (sent === null) {
      this.submitState = 'idle';
      return;
    }
    const { url } = sent;
    this.submitState = 'redirecting';
    if (emit(this, 'billing-pay-redirect', { url }, { cancelable: true })) {
      // Only linking a card: its test payment is cancelled, so there is no payment to tell of on the way back.
      const linking = v.linkOnly && this.save && this.linkOnly;
      if (!linking) this.returned.remember(form.request, sent.paymentId, this.returnAddress());
      this.navigate(url);
    } else this.submitState = 'idle';
  }

  /**
   * Shows a failure, tells the page (`billing-pay-error`) and moves the focus where the person can act on it: the
   * first field with a problem, else the button. A failed `/config` load says only that.
   */
  private report(failure: PayError, loading = false): void {
    const { t, locale } = this.localize.speech();
    const v = this.view();
    this.failure = failure;
    if (!loading) this.submitState = 'error';
    // A merchant's mistake: the payer gets a neutral text, the developer the fix.
    if (failure.code === 'origin_not_allowed') console.error('<billing-pay>:', failure.message);
    const message = loading ? t.labels.error_config : failureText(t, locale, failure, v.systems.length > 1);
    const fields = failure.fields
      ? Object.fromEntries(Object.entries(failure.fields).map(([path, p]) => [path, problemText(t, v.kind, path, p)]))
      : undefined;
    emit(this, 'billing-pay-error', { code: failure.code, message, ...(fields && { fields }) });
    // A repeated "Try again" took its button away while it loaded: give the focus back to the new one.
    if (loading && this.loader.failures < 2) return;
    const first = failure.fields && firstProblemField(v, failure.fields);
    void this.updateComplete.then(() => {
      const root = this.renderRoot as ShadowRoot;
      (first ? root.getElementById(first) : root.activeElement ? null : root.querySelector('button'))?.focus();
    });
  }

  /** Sends the top page to the payment system (or this frame, when the top page is out of reach). */
  protected navigate(url: string): void {
    try {
      (window.top ?? window).location.assign(url);
    } catch {
      window.location.assign(url);
    }
  }

  private get busy(): boolean {
    return this.submitState === 'validating' || this.submitState === 'sending' || this.submitState === 'redirecting';
  }

  override render(): TemplateResult {
    const { t, locale } = this.localize.speech();
    const v = this.view();
    const { labels } = t;
    const c: FieldsContext = {
      v,
      t,
      locale,
      problems: this.problems,
      values: this.values,
      save: this.save,
      linkOnly: this.linkOnly,
      names: { A: this.labelA, B: this.labelB, C: this.labelC },
      currency: this.currency,
      // Drawn only once `/config` is loaded.
      autopay: { days: this.config?.autopayLeadDays ?? 0, methods: this.methodsUrl, terms: this.autopayTermsUrl },
      on: {
        input: this.onInput,
        system: this.onSystem,
        kind: this.onKind,
        save: this.onSave,
        linkOnly: this.onLinkOnly,
      },
    };
    const ready = this.state === 'ready' && v.system;
    const linking = v.linkOnly && this.save && this.linkOnly;
    const failed = this.submitState === 'error' || this.state === 'failed';
    const back = this.returned.shown;
    // Pressing Pay with a pointer leaves the focus where it is: leaving a changed field checks it, and an error shown
    // above would move Pay from under the pointer between press and release, losing the click (Pay checks it all).
    return html`<form class="panel" part="form" lang=${locale} novalidate aria-label=${labels.form} @submit=${this.onSubmit}>
      <p class="status" part="return" aria-live="polite">${back ? returnText(back, t, locale, systemName(c, back.system), this.currency) : ''}</p>
      ${ready ? formFields(c) : nothing}
      <p class="status ${failed ? 'error' : ''}" part="status" role="status">${statusText(c, this.state, this.submitState, this.failure)}</p>
      ${
        this.state === 'failed' && this.relay
          ? html`<button part="button" type="button" @click=${this.onRetry}>${labels.retry}</button>`
          : nothing
      }
      ${
        ready
          ? html`<button part="button" type="submit" ?disabled=${this.busy} @mousedown=${(e: Event) => e.preventDefault()}>${linking ? labels.link : labels.pay}</button>
            <p class="note" part="note">${labels.card_note}</p>`
          : nothing
      }
    </form>`;
  }
}
