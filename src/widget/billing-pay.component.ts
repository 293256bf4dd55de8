import { css, html, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { canonicalAmount } from '../eps/amount.js';
import type { PaymentOptions } from '../eps/relay-api.js';
import type { SystemId } from '../eps/systems.js';
import { formatAmount, parseAmountInput } from './amount-input.js';
import { BillingElement } from './billing-element.js';
import sharedStyles from './billing-element.styles.js';
import { formFields, payLabel, type FieldsContext } from './billing-pay-fields.js';
import styles from './billing-pay.styles.js';
import { ConfigLoader, type LoadedConfig } from './config-loader.js';
import { emit } from './events.js';
import type { Checkout, CheckoutPort } from './checkout.js';
import { firstProblemField, formView, PATHS_OF, withoutProblems } from './form-model.js';
import type { FormInput, FormView, ValueKey } from './form-model.js';
import { LocalizeController } from './localize.js';
import { PayError } from './pay-error.js';
import { firstFailureText, loadFailureText, statusText } from './pay-messages.js';
import { PayerEntries, type EntriesPatch } from './payer-entries.js';
import { loadReturn, PaymentReturn, whenIdle } from './payment-return.js';
import { warmFormats } from './formats.js';
import { loadLate } from './late/load.js';
import type { SubmitState } from './payment-sender.js';

export type { SubmitState } from './payment-sender.js';

/** What the skeleton is drawn from while `/config` loads: the usual offer, so the form takes its place unmoved. */
const ASSUMED: PaymentOptions = {
  systems: (['A', 'B', 'C'] as const).map((id) => ({ id, canSave: id !== 'C', linkOnly: id === 'A' })),
  lookups: [],
  maxAmount: '0',
  autopayLeadDays: 1,
};

/** How long the first render waits for `/config` before it draws the skeleton. */
const SKELETON_AFTER_MS = 150;
const IDLE: SubmitState = { name: 'idle' };

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
 * @fires billing-pay-return - The payer came back, in the tab they paid in or a new one, to the page they left for the payment page, and the
 *   element says so (once; after the page's scripts could listen, else read `paymentReturn`). Detail: `{system, amount,
 *   lookup, agreement, paymentId, outcome, time}`; `outcome` is `sent` (the balance changes once the system confirms
 *   it), or `not_completed` when the payer came back by the failure address the widget gives B.
 *
 * @csspart form - The form.
 * @csspart return - The heading and meaning of the result screen when the payer comes back from the payment page (a
 *   live region; empty otherwise).
 * @csspart result - The result screen's list of what was sent (system, amount, agreement, payment id, time).
 * @csspart systems - The fieldset of the payment system tiles.
 * @csspart legend - The legend of the payment system group.
 * @csspart tile - Each payment system tile (a label holding the radio, the logo slot and the name).
 * @csspart system-name - The name in each tile.
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
 * @csspart add-comment - "Add a comment", where the comment field waits.
 * @csspart question - The duplicate payment question's "Pay again" and "Cancel" (the question is the status line).
 * @csspart button - The Pay button, "Try again" when the payment options could not be loaded, the question's and the
 *   result screen's buttons.
 * @csspart note - The note under the button.
 *
 * @cssprop [--billing-pay-font-family=system-ui, sans-serif] - Font family (the page's own font does not reach in:
 *   set this to use it).
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
 * @slot logo-a - The merchant's logo of system A, shown in its tile (an `<img>` or `<svg>`, about 1.5em high); `logo-b`
 *   and `logo-c` likewise.
 *
 * @attr state - Where the element is, reflected from the `state` property for a page and its CSS to read (setting it
 *   does nothing): `loading` its relay's `/config`, `ready` (`billing-pay-ready` has fired) or `failed`.
 * @attr lang - The language (the standard attribute): `ru` and `en` are built in, any other needs `texts` for it; when
 *   absent, the closest ancestor's or the page's language (followed as `<html lang>` changes). Amounts are read and written in its number format (`Intl`).
 */
export class BillingPay extends BillingElement {
  // One sheet: the first screen parses one.
  static override styles = css`${sharedStyles}${styles}`;

  /** Lit's reactive properties, each documented at its field (see `BillingElement.properties`). */
  static override properties: PropertyDeclarations = {
    config: { attribute: false },
    submit: { attribute: false },
    loadFailure: { attribute: false },
    sessionAgreement: { attribute: false },
    resultClosed: { attribute: false },
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
    showComment: { type: Boolean, attribute: 'show-comment' },
    allowLinkOnly: { type: Boolean, attribute: 'allow-link-only' },
    methodsUrl: { attribute: 'methods-url' },
    autopayTermsUrl: { attribute: 'autopay-terms-url' },
  };

  private readonly localize = new LocalizeController(this, (catalog) => catalog.pay);
  private readonly entries = new PayerEntries(this);
  private readonly loader = new ConfigLoader(this);
  private readonly returned = new PaymentReturn(this, { onLoadFailed: (failure) => this.report(failure) });
  /** The submit chain (checkout.ts), once its late module is here; one per element (it holds an unanswered key). */
  private checkout?: Checkout;
  private checkoutPending?: Promise<Checkout>;
  /** What the submit chain reads and changes of this element. */
  private readonly port: CheckoutPort = {
    host: this,
    relay: () => this.relay,
    speech: () => this.localize.speech(),
    input: () => this.input(),
    view: () => this.view(),
    entries: this.entries,
    returned: this.returned,
    returnAddress: () => this.returnAddress(),
    submit: () => this.submit,
    setSubmit: (state) => {
      this.submit = state;
    },
    frameOrigins: () => this.frameOrigins,
    report: (failure) => this.report(failure),
    navigate: (url) => this.navigate(url),
    focusLater: (selector) => this.focusLater(selector),
  };

  /** The locale the amount text was last shown in. */
  private shownLocale?: string;

  /** The relay's `/config`, once loaded. */
  private config: PaymentOptions | null = null;
  /** Where the current submit is, with what that step holds. */
  private submit: SubmitState = IDLE;
  /** Why `/config` could not be loaded (the element's `state` is then `failed`). */
  private loadFailure: PayError | null = null;
  /** The agreement the client session names (found by its ID), once loaded. */
  private sessionAgreement = '';
  /** The payer left the result screen for the form. */
  private resultClosed = false;

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

  /** A preset e-mail for the receipt (the one contact field starts with it). */
  email = '';

  /** A preset phone number for the receipt (the contact field starts with it when there is no `email`). */
  phone = '';

  /** The merchant's name for system A in every language (`texts.systems` names it per language); default "System A". */
  labelA = '';

  /** The merchant's name for system B; default "System B". */
  labelB = '';

  /** The merchant's name for system C; default "System C". */
  labelC = '';

  /**
   * The currency of the amount, for the payer's eyes only (the billing names none): an ISO 4217 code (`RUB`) is written
   * by `Intl` with its symbol in the language's place (label and Pay button: `Pay 1 500,50 ₽`); any other text follows
   * the number as given.
   */
  currency = '';

  /** Show the comment field at once; without it the comment waits behind "Add a comment". */
  showComment = false;

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

  /** The relay and session of the last `/config` load begun, and that load's requests (settled or not). */
  private loadedFor = '';
  private fetching?: Promise<unknown>;
  private readyFired = false;

  /** What a `/config` load is for: the relay and the session. */
  private get loadKey(): string {
    return `${this.relay} ${this.session}`;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('pageshow', this.onPageShow);
    if (this.loadedFor && this.state !== 'ready') void this.loadConfig();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('pageshow', this.onPageShow);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Another relay or session (a property the page set before the element was defined comes in here): its `/config`,
    // before a form of the old one is drawn.
    if ((changed.has('relay') || changed.has('session')) && this.loadedFor !== this.loadKey) void this.loadConfig();
    const { locale } = this.localize.speech();
    const { values, problems } = this.entries.value;
    if (changed.has('amount')) {
      // No amount (the usual first update) reads none: the amount's rules wait for the payer's typing.
      const canonical = this.amount === '' ? null : canonicalAmount(this.amount);
      this.entries.set({ values: { amount: canonical ? formatAmount(canonical, locale) : this.amount } });
    } else if (this.shownLocale && locale !== this.shownLocale) {
      // Keep a readable amount readable when the language (and so the decimal mark) changes.
      const parsed = parseAmountInput(values.amount, this.shownLocale);
      if (parsed.ok) this.entries.set({ values: { amount: formatAmount(parsed.amount, locale) } });
    }
    this.shownLocale = locale;
    if (changed.has('email') || changed.has('phone'))
      this.entries.set({ values: { contact: this.email || this.phone } });
    // "Correct the highlighted fields" goes with the last field's error (the live region falls silent).
    if (this.submit.name === 'error' && this.submit.failure.fields && !Object.keys(problems).length) this.submit = IDLE;
  }

  /**
   * The first render waits for `/config` a moment (a preloaded one is there by then), so the form is drawn once; the
   * skeleton is drawn only when it is late. One deadline, whatever load is in flight (a move in the page starts another).
   */
  protected override async scheduleUpdate(): Promise<void> {
    if (!this.hasUpdated) {
      if (!this.loadedFor) void this.loadConfig();
      const deadline = performance.now() + SKELETON_AFTER_MS;
      let waited: Promise<unknown> | undefined;
      while (this.state === 'loading' && this.fetching !== waited && performance.now() < deadline) {
        waited = this.fetching;
        await Promise.race([waited, new Promise((resolve) => setTimeout(resolve, deadline - performance.now()))]);
      }
    }
    super.scheduleUpdate();
  }

  private async loadConfig(retry = false): Promise<void> {
    const key = (this.loadedFor = this.loadKey);
    this.config = null;
    this.loadFailure = null;
    if (!this.relay) {
      this.loader.cancel();
      this.readiness.set('failed');
      return;
    }
    this.readiness.set('loading');
    let loaded: LoadedConfig | null;
    try {
      // The form is shown in the payer's language, never in English first.
      const fetched = Promise.all([this.loader.load(this.relay, this.session, { retry }), this.localize.loaded()]);
      this.fetching = fetched.catch(() => {});
      [loaded] = await fetched;
    } catch (error) {
      if (this.loadedFor !== key) return;
      this.readiness.set('failed');
      this.report(error as PayError, true);
      return;
    }
    if (!loaded || this.loadedFor !== key) return;
    this.sessionAgreement = loaded.sessionAgreement;
    this.config = loaded.config;
    this.readiness.set('ready');
    await this.updateComplete;
    // Once per element, for a form shown: a load begun meanwhile (another relay or session) fires it when it is done.
    if (this.readyFired || this.loadedFor !== key || this.state !== 'ready') return;
    this.readyFired = true;
    const { systems, kinds } = this.view();
    emit(this, 'billing-pay-ready', {
      systems: systems.map((s) => s.id),
      lookups: kinds,
      maxAmount: loaded.config.maxAmount,
    });
    // What the next steps need, after the first screen: the submit chain, the formatters, an unmarked return.
    this.checkoutLoaded().catch(() => {});
    whenIdle(() => loadReturn().catch(() => {}));
    this.returned.lookLater();
    whenIdle(() => warmFormats(this.localize.speech().locale));
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
    if (this.submit.name === 'redirecting') this.submit = IDLE;
  };

  /**
   * Typing into a text field (`input`), and leaving it changed (`change`, which an untouched field does not fire): the
   * field is checked by the model when the payer leaves it after an edit; an error it shows follows what they type,
   * and goes once the value is valid (an error from the relay, at the first edit). The form hears every control's
   * `input` and `change` as they bubble: no listener per control.
   */
  private onInput = (e: Event) => {
    const { name, value } = e.target as HTMLInputElement;
    // Radios, boxes and the select fire `input` too: their `change` says it.
    if (!Object.hasOwn(PATHS_OF, name)) return;
    this.entries.set({ values: { [name]: value } });
    if (PATHS_OF[name as ValueKey].some((p) => this.entries.value.problems[p])) this.checkField(name as ValueKey);
  };

  private onChange = (e: Event) => {
    const { name, id, value, checked } = e.target as HTMLInputElement;
    if (name === 'system') this.entries.set({ chosenSystem: value as SystemId });
    else if (id === 'f-kind')
      this.entries.set({
        chosenKind: Number(value),
        problems: withoutProblems(this.entries.value.problems, 'agreement_param_id', 'agreement_param_value'),
      });
    else if (id === 'f-save') this.entries.set({ save: checked });
    else if (id === 'f-link-only') this.entries.set({ linkOnly: checked });
    else if (Object.hasOwn(PATHS_OF, name)) this.checkField(name as ValueKey);
  };

  /** At once when the submit chain is here (it loads at ready), else when it arrives (should it fail, Pay says so). */
  private checkField(name: ValueKey): void {
    if (this.checkout) this.checkout.checkField(name);
    else
      this.checkoutLoaded().then(
        (checkout) => checkout.checkField(name),
        () => {},
      );
  }

  private onAddComment = () => {
    this.entries.set({ commentOpen: true });
    void this.focusLater('#f-comment');
  };

  private onSubmit = (e: Event) => {
    e.preventDefault();
    void this.pay();
  };

  /**
   * Leaves the result screen for the form (its "Try again" or "Make another payment"): with the values the result
   * screen puts back, Pay takes the focus; else the form is as the page set it, and its first field does.
   */
  private onResultClose = (restore: EntriesPatch | null) => {
    this.resultClosed = true;
    this.returned.clear();
    if (restore) this.entries.set(restore);
    void this.focusLater(restore ? 'button[type="submit"]' : 'input');
  };

  /** `return-url` resolved against the page (a relative one too), else the page itself; as typed when unparsable. */
  private returnAddress(): string {
    try {
      return new URL(this.returnUrl || location.href, document.baseURI).href;
    } catch {
      return this.returnUrl;
    }
  }

  /** Everything the form depends on: the attributes, the relay's answers and the payer's entries. */
  private input(config = this.config): FormInput {
    return {
      ...this.entries.value,
      config,
      systems: this.systems,
      lookup: this.lookup,
      agreement: this.agreement,
      amount: this.amount,
      amountFixed: this.amountFixed,
      allowLinkOnly: this.allowLinkOnly,
      showComment: this.showComment,
      sessionAgreement: this.sessionAgreement,
    };
  }

  /** What the form shows now (form-model.ts). */
  private view(): FormView {
    return formView(this.input());
  }

  /** The submit chain, made once whoever asks first (checkout.ts); a failed load may be asked for again. */
  private checkoutLoaded(): Promise<Checkout> {
    this.checkoutPending ??= loadLate('pay').then(
      ({ Checkout }) => {
        this.checkout = new Checkout(this.port);
        // It brings the autopayment disclosure and its English.
        this.requestUpdate();
        return this.checkout;
      },
      (error: unknown) => {
        this.checkoutPending = undefined;
        throw error;
      },
    );
    return this.checkoutPending;
  }

  /**
   * One press of Pay: the submit chain checks the form and sends it (checkout.ts). Pressed before it is here, Pay waits
   * for it (a bundle that cannot have it pinned says so and sends nothing); then the press counts only if the form is
   * still there, the element still in the page, and no method is saved without the disclosure having been shown.
   */
  private async pay(): Promise<void> {
    if (this.busy || !this.config || !this.view().system) return;
    if (!this.checkout) {
      this.submit = { name: 'checking' };
      const undisclosed = this.entries.value.save && this.view().canSave;
      try {
        await this.checkoutLoaded();
      } catch (error) {
        this.report(new PayError('network', 'load_failed', 'The submit chain could not be loaded.', { cause: error }));
        return;
      }
      if (!this.isConnected || !this.config || !this.view().system || undisclosed) {
        this.submit = IDLE;
        // The disclosure is shown now, under "Save payment method", which it describes: the next press consents.
        if (undisclosed) void this.focusLater('#f-save');
        return;
      }
    }
    await this.checkout!.pay();
  }

  /**
   * Shows a failure, tells the page (`billing-pay-error`) and moves the focus where the person can act on it: the
   * first field with a problem, else the button. A failed `/config` load says only that; a page the relay does not
   * allow gets a neutral line, and its developer the fix in the console.
   */
  private report(failure: PayError, loading = false): void {
    const { t } = this.localize.speech();
    const v = this.view();
    if (loading) this.loadFailure = failure;
    else this.submit = { name: 'error', failure };
    if (failure.code === 'origin_not_allowed')
      console.error(
        `<billing-pay>: ${failure.message} Add this page's origin to the relay's ALLOWED_ORIGINS (comma-separated): ${location.origin}`,
      );
    // Before the submit chain is here, only a failed load is told (its texts come with it, and so do fields).
    const { checkout } = this;
    const message = loading
      ? loadFailureText(t, failure)
      : checkout
        ? checkout.failureText(failure)
        : firstFailureText(t, failure);
    const fields = failure.fields && !loading ? checkout?.fieldTexts(failure.fields) : undefined;
    emit(this, 'billing-pay-error', { code: failure.code, message, ...(fields && { fields }) });
    // A repeated "Try again" took its button away while it loaded: give the focus back to the new one.
    if (loading && this.loader.failures < 2) return;
    const first = failure.fields && firstProblemField(v, failure.fields);
    void this.updateComplete.then(() => {
      const root = this.renderRoot as ShadowRoot;
      const button = root.querySelector<HTMLElement>('button[type="submit"]') ?? root.querySelector('button');
      (first ? root.getElementById(first) : root.activeElement ? null : button)?.focus();
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
    const { name } = this.submit;
    return name === 'checking' || name === 'sending' || name === 'redirecting' || name === 'duplicate';
  }

  override render(): TemplateResult {
    const { t, locale } = this.localize.speech();
    // A return about to be said keeps the skeleton: the result screen comes in its place, never after the form.
    const loading = this.state === 'loading' || this.returned.pending;
    const failed = this.state === 'failed';
    // While `/config` loads, the form is drawn from the usual offer, inert and greyed: it keeps its place.
    const v = loading ? formView(this.input(ASSUMED)) : this.view();
    const { labels } = t;
    const { problems, values, save, linkOnly } = this.entries.value;
    const c: FieldsContext = {
      v,
      t,
      locale,
      problems,
      values,
      save,
      linkOnly,
      names: { A: this.labelA, B: this.labelB, C: this.labelC },
      currency: this.currency,
      autopay: {
        days: (loading ? ASSUMED : this.config)?.autopayLeadDays ?? 0,
        methods: this.methodsUrl,
        terms: this.autopayTermsUrl,
      },
      disclosure: this.checkout?.disclosure,
      problemText: this.checkout?.problemText,
      onAddComment: this.onAddComment,
    };
    const back = this.resultClosed ? null : this.returned.fired;
    // A return is said only once its module is here (`fired` comes after it).
    const result = back && this.returned.module?.resultScreen(back, c, this.returned.tryAgain, this.onResultClose);
    const submit = this.submit;
    const working = submit.name === 'sending' || submit.name === 'redirecting';
    const error = failed || submit.name === 'error';
    const question = submit.name === 'duplicate' ? this.checkout!.question(submit.earlierAt) : undefined;
    const status = question
      ? question.said
      : statusText({ t, locale, v, errorLine: this.checkout?.errorLine }, this.state, submit, this.loadFailure);
    // While sending and redirecting Pay says so (an endless CSS animation would keep axe from finishing in WebKit).
    // Pressing Pay with a pointer leaves the focus where it is: leaving a changed field checks it, and an error shown
    // above would move Pay from under the pointer between press and release, losing the click (Pay checks it all).
    return html`<div class="panel" lang=${locale}>
      <div class="status" part="return" aria-live="polite">${result ? result.said : ''}</div>
      ${
        result
          ? result.screen
          : html`<form class="stack" part="form" lang=${locale} novalidate aria-label=${labels.form} aria-busy=${loading || working || submit.name === 'checking' ? 'true' : 'false'} @submit=${this.onSubmit} @input=${this.onInput} @change=${this.onChange}>
        ${failed || !v.system ? nothing : html`<div class="fields stack ${loading ? 'skeleton' : ''}" ?inert=${loading || this.busy}>${formFields(c)}</div>`}
        <p id="status" class="status ${error ? 'error' : ''} ${submit.name === 'duplicate' ? 'question-text' : ''} ${loading ? 'hidden' : ''}" part="status" role="status">${status}</p>
        ${failed && this.relay ? html`<button part="button" type="button" @click=${this.onRetry}>${labels.retry}</button>` : nothing}
        ${
          question
            ? question.answers
            : failed || !v.system
              ? nothing
              : html`<button part="button" type="submit" class="pay ${loading ? 'skeleton' : ''}" ?disabled=${loading || this.busy} @mousedown=${(e: Event) => e.preventDefault()}>
                  ${working ? status : payLabel(c, v.linkOnly && save && linkOnly)}
                </button>
                <p class="note" part="note">${labels.card_note}</p>`
        }
      </form>`
      }
    </div>`;
  }
}
