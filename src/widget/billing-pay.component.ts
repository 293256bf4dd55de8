import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { canonicalAmount, toMinorUnits } from '../eps/amount.js';
import { isLookupKind, LOOKUP_KEYS, type LookupKind } from '../eps/lookup.js';
import { checkRequest } from '../eps/check.js';
import { SYSTEMS, type SystemId } from '../eps/systems.js';
import { formatAmount, parseAmountInput } from './amount-input.js';
import styles from './billing-pay.styles.js';
import { emit } from './emit.js';
import { fill, langTagOf, problemOf, resolveTexts, type Texts, type TextsOption } from './i18n.js';
import {
  fetchConfig,
  isSafeRedirect,
  newIdempotencyKey,
  PayError,
  postPayment,
  sleep,
  type RelayConfig,
  type RelaySystem,
} from './relay-client.js';
import { buildPaymentRequest, takes, TEXT_PARAMS, type FormValues } from './request.js';
import { Readiness, type ReadyState } from './readiness.js';
import { fetchSessionAgreement } from './session-client.js';

/** Where a submit is: an invalid form or a failed request ends in `error`; a cancelled one goes back to `idle`. */
export type SubmitState = 'idle' | 'validating' | 'sending' | 'redirecting' | 'error';

type ValueKey = 'amount' | 'lookupValue' | 'email' | 'phone' | 'name' | 'comment';

/** What the form offers right now, derived from the attributes and the relay's `/config`. */
interface View {
  /** The locale of the texts, for `Intl` and the form's `lang`. */
  locale: string;
  t: Texts;
  systems: RelaySystem[];
  system: RelaySystem | undefined;
  kinds: LookupKind[];
  kind: LookupKind;
  canSave: boolean;
  linkOnly: boolean;
}

const NO_VALUES: Record<ValueKey, string> = { amount: '', lookupValue: '', email: '', phone: '', name: '', comment: '' };

/**
 * A payment form for a merchant's page: the client picks a payment system, enters an amount and how to find their
 * agreement, may save the payment method (which connects autopayments), and is sent to the payment system's own page.
 * It talks only to the merchant's relay and never shows or touches card data.
 *
 * @summary Pay into a billing agreement through payment system A, B or C, optionally connecting autopayments.
 *
 * @fires billing-pay-ready - `/config` is loaded and the form is shown; once per element, the first time. Detail:
 *   `{systems, lookups, maxAmount}`. A page that may listen too late reads `state` instead.
 * @fires billing-pay-submit - A valid payment is about to be sent to the relay. Detail: the request body.
 * @fires billing-pay-redirect - The relay answered the payment page. Detail: `{url}`. Cancelable: when cancelled, the
 *   widget does not navigate.
 * @fires billing-pay-error - The form is invalid, the relay refused, or it could not be reached (also when `/config`
 *   fails: `network_error`, `timeout`, `origin_not_allowed` — the page's origin is not in the relay's `ALLOWED_ORIGINS`,
 *   with the fix in the console — or the relay's code). Detail: `{code, message, fields?}`.
 *
 * @csspart form - The form.
 * @csspart systems - The fieldset of the payment system radios.
 * @csspart legend - The legend of the payment system group.
 * @csspart radio - Each payment system radio.
 * @csspart field - Each labelled field (label, control and error).
 * @csspart label - Each field's label.
 * @csspart input - Each text field.
 * @csspart select - The lookup kind chooser.
 * @csspart checkbox - Each checkbox.
 * @csspart hint - A hint under a field.
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
 *   does nothing): `loading`, `ready` or `failed`.
 * @attr lang - The language (the standard attribute): `ru` and `en` are built in, any other needs `texts` for it; when
 *   absent, the closest ancestor's or the page's language. Amounts are read and written in its number format (`Intl`).
 */
export class BillingPay extends LitElement {
  static override styles = styles;

  private readonly readiness = new Readiness(this);

  /** Aborts the `/config` request and the payment in flight (when the element is removed, for one). */
  private configAbort?: AbortController;
  private payAbort?: AbortController;
  /** The locale the amount text was last shown in. */
  private shownLocale?: string;
  /** Failed `/config` loads in a row: each "Try again" after the first waits longer (backoff). */
  private configFailures = 0;
  /** A payment that got no answer (network, timeout), with its key: the same request again reuses the key. */
  private unanswered?: { json: string; key: string };

  /** The relay's `/config`, once loaded. */
  @state() private config: RelayConfig | null = null;
  /** Where the current submit is. */
  @state() private submitState: SubmitState = 'idle';
  /** The last failure (with its cause), shown in the status region. */
  @state() private failure: PayError | null = null;
  /** Field path (`amount`, `eps_params.email`, …) → problem key, or a text from the relay. */
  @state() private problems: Record<string, string> = {};
  @state() private chosenSystem: SystemId | null = null;
  @state() private chosenKind: number | null = null;
  @state() private values: Record<ValueKey, string> = { ...NO_VALUES };
  @state() private save = false;
  @state() private linkOnly = false;
  /** The agreement the client session names (found by kind 11, agreement ID), once loaded. */
  @state() private sessionAgreement = '';

  /** Base URL of the relay: the widget reads `{relay}/config` and posts to `{relay}/payments`. */
  @property() relay = '';

  /** Which of the systems `A B C` to offer, in this order (space-separated); default: all the relay offers. */
  @property() systems = '';

  /** A preset amount (`1500.50`). */
  @property() amount = '';

  /** With a preset `amount`, the client cannot change it. */
  @property({ type: Boolean, attribute: 'amount-fixed' }) amountFixed = false;

  /** The kinds of value (`agreement_param_id`) by which the client may find the agreement, e.g. `"5 7"`. */
  @property() lookup = '5';

  /** A preset lookup value (of the first `lookup` kind): the client does not type it. */
  @property() agreement = '';

  /**
   * A client session signed by the merchant's backend for the logged-in client: the agreement it names is preset
   * (lookup kind 11), so the client types only the amount. A preset `agreement` wins; an invalid session is ignored.
   */
  @property() session = '';

  /** Where the client comes back after paying; default: the current page. */
  @property({ attribute: 'return-url' }) returnUrl = '';

  /** A preset e-mail for the receipt. */
  @property() email = '';

  /** A preset phone number for the receipt. */
  @property() phone = '';

  /** The merchant's name for system A in every language (`texts.systems` names it per language); default "System A". */
  @property({ attribute: 'label-a' }) labelA = '';

  /** The merchant's name for system B; default "System B". */
  @property({ attribute: 'label-b' }) labelB = '';

  /** The merchant's name for system C; default "System C". */
  @property({ attribute: 'label-c' }) labelC = '';

  /** A currency name for the Amount label only (the billing names none, so none is assumed). */
  @property() currency = '';

  /** Offer "Only link the card (no charge)" with a saved method, where the system can (A). */
  @property({ type: Boolean, attribute: 'allow-link-only' }) allowLinkOnly = false;

  /**
   * Texts that replace the built-in ones, for every language (`{labels: {pay: 'Pay now'}}`) or per language tag
   * (`{ru: {labels: {…}, systems: {A: 'Банковская карта'}}, de: {labels: {…}, kinds: {…}, errors: {…}}}`): a tag that is
   * not built in becomes a language of its own, on top of English. Keys: `labels`, `kinds`, `problems`, `errors` (per
   * error code), `missing` (no agreement found, per lookup kind) of `TEXTS.en`, and `systems` (names of A, B, C, over
   * `label-a`…). As an attribute: JSON.
   */
  @property({ type: Object }) texts: TextsOption | null = null;

  /** The colour scheme: `auto` follows the page's `prefers-color-scheme`; `light` or `dark` forces one. */
  @property({ reflect: true }) theme: 'light' | 'dark' | 'auto' = 'auto';

  /**
   * Where the element is: `loading` its relay's `/config`, `ready` (the form is shown: `billing-pay-ready` has fired,
   * perhaps before the page listened), or `failed` to load it. Read-only; reflected to the `state` attribute.
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

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('pageshow', this.onPageShow);
    if (this.hasUpdated && this.state !== 'ready') void this.loadConfig();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('pageshow', this.onPageShow);
    this.configAbort?.abort();
    this.payAbort?.abort();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const { locale } = this.speech();
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
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('relay') || changed.has('session')) void this.loadConfig();
  }

  private async loadConfig(delayMs = 0): Promise<void> {
    this.configAbort?.abort();
    const controller = (this.configAbort = new AbortController());
    this.config = null;
    if (!this.relay) {
      this.readiness.set('failed');
      return;
    }
    this.readiness.set('loading');
    try {
      if (delayMs) await sleep(delayMs, controller.signal);
      const [config, agreement] = await Promise.all([
        fetchConfig(this.relay, controller.signal),
        this.session ? fetchSessionAgreement(this.relay, this.session, controller.signal).catch(() => 0) : 0,
      ]);
      this.sessionAgreement = agreement && config.lookups.includes(11) ? String(agreement) : '';
      this.config = config;
      const first = this.readiness.set('ready');
      this.configFailures = 0;
      await this.updateComplete;
      if (!first) return;
      const { systems, kinds } = this.view();
      emit(this, 'billing-pay-ready', { systems: systems.map((s) => s.id), lookups: kinds, maxAmount: config.maxAmount });
    } catch (error) {
      if (controller.signal.aborted) return;
      this.readiness.set('failed');
      this.configFailures++;
      this.report(toPayError(error), 'error_config');
    }
  }

  /** "Try again" after `/config` failed: at once the first time, then after 1, 2, 4… seconds (30 at most). */
  private onRetry = () => {
    void this.loadConfig(this.configFailures > 1 ? Math.min(1000 * 2 ** (this.configFailures - 2), 30_000) : 0);
  };

  /** Back from the payment page through the back/forward cache: the form is usable again. */
  private onPageShow = (e: PageTransitionEvent) => {
    if (e.persisted && this.submitState === 'redirecting') this.submitState = 'idle';
  };

  private onSystem = (e: Event) => {
    this.chosenSystem = (e.target as HTMLInputElement).value as SystemId;
  };

  private onKind = (e: Event) => {
    this.chosenKind = Number((e.target as HTMLSelectElement).value);
    this.clearProblem('agreement_param_id', 'agreement_param_value');
  };

  private onInput = (e: Event) => {
    const input = e.target as HTMLInputElement;
    const key = input.name as ValueKey;
    this.values = { ...this.values, [key]: input.value };
    this.clearProblem(PATH_OF[key]);
  };

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

  private clearProblem(...paths: string[]): void {
    if (!paths.some((p) => p in this.problems)) return;
    const problems = { ...this.problems };
    for (const p of paths) delete problems[p];
    this.problems = problems;
  }

  /** The texts and locale in effect: the language of the element or the page, with the page's `texts`. */
  private speech() {
    return resolveTexts(langTagOf(this), this.texts);
  }

  /** What the attributes and `/config` offer, with the client's current choices. */
  private view(): View {
    const offered = this.config?.systems ?? [];
    const wanted = this.systems.toUpperCase().split(/[\s,]+/).filter(Boolean);
    const systems = wanted.length
      ? [...new Set(wanted)].flatMap((id) => offered.filter((s) => s.id === id))
      : offered;
    const system = systems.find((s) => s.id === this.chosenSystem) ?? systems[0];
    // A session's agreement is found by its ID (kind 11), unless the merchant presets one of their own.
    const lookup = this.agreement || !this.sessionAgreement ? this.lookup : '11';
    const listed = lookup.split(/[\s,]+/).filter(Boolean).map(Number).filter(isLookupKind);
    const kinds = listed.length ? [...new Set(listed)] : ([5] as LookupKind[]);
    const kind = this.preset ? kinds[0]! : (kinds.find((k) => k === this.chosenKind) ?? kinds[0]!);
    const spec = system && SYSTEMS[system.id];
    const canSave = Boolean(system?.canSave && spec?.autopay);
    return {
      ...this.speech(),
      systems,
      system,
      kinds,
      kind,
      canSave,
      linkOnly: canSave && this.allowLinkOnly && Boolean(system?.linkOnly && spec?.linkOnly),
    };
  }

  /** One press of Pay: validate, send with a fresh idempotency key, then hand over to the payment page. */
  private async pay(): Promise<void> {
    if (this.busy || !this.config) return;
    this.submitState = 'validating';
    const v = this.view();
    if (!v.system) {
      this.submitState = 'idle';
      return;
    }
    const amount = parseAmountInput(this.values.amount, v.locale);
    const body = buildPaymentRequest(this.formValues(v, amount.ok ? amount.amount : this.values.amount), v);
    const checked = checkRequest(body, {
      maxAmount: toMinorUnits(this.config.maxAmount) ?? BigInt(Number.MAX_SAFE_INTEGER),
      systems: v.systems.map((s) => s.id),
      lookups: this.config.lookups,
    });
    const problems = checked.ok ? {} : { ...checked.fields };
    if (!amount.ok) problems.amount = amount.problem;
    if (Object.keys(problems).length) {
      this.problems = problems;
      this.report(new PayError('validation', 'validation_failed', 'The form is not valid.', { fields: problems }));
      return;
    }

    this.problems = {};
    this.failure = null;
    emit(this, 'billing-pay-submit', body);
    this.submitState = 'sending';
    const controller = (this.payAbort = new AbortController());
    // Pay pressed again after no answer came: the same request keeps its key, so the relay cannot pay it twice.
    const json = JSON.stringify(body);
    const key = this.unanswered?.json === json ? this.unanswered.key : newIdempotencyKey();
    this.unanswered = undefined;
    try {
      const url = await postPayment(this.relay, body, key, controller.signal);
      if (!isSafeRedirect(url)) {
        throw new PayError('relay', 'unsafe_redirect', 'The payment page address is not https.', { cause: url });
      }
      this.submitState = 'redirecting';
      if (emit(this, 'billing-pay-redirect', { url }, { cancelable: true })) this.navigate(url);
      else this.submitState = 'idle';
    } catch (error) {
      if (controller.signal.aborted) {
        this.submitState = 'idle';
        return;
      }
      const failure = toPayError(error);
      if (failure.type === 'network') this.unanswered = { json, key };
      if (failure.fields) this.problems = { ...failure.fields };
      this.report(failure);
    } finally {
      if (this.payAbort === controller) this.payAbort = undefined;
    }
  }

  private formValues(v: View, amount: string): FormValues {
    return {
      ...this.values,
      system: v.system!.id,
      amount,
      lookupKind: v.kind,
      lookupValue: this.preset || this.values.lookupValue,
      save: this.save,
      linkOnly: this.linkOnly,
      returnUrl: this.returnUrl || window.location.href,
    };
  }

  /** Shows a failure, tells the page (`billing-pay-error`) and moves the focus where the person can act on it. */
  private report(failure: PayError, label?: 'error_config'): void {
    const v = this.view();
    this.failure = failure;
    if (!label) this.submitState = 'error';
    // A merchant's mistake: the payer gets a neutral text, the developer the fix.
    if (failure.code === 'origin_not_allowed') console.error('<billing-pay>:', failure.message);
    const message = label ? v.t.labels[label] : failureText(v, failure);
    const fields = failure.fields
      ? Object.fromEntries(Object.entries(failure.fields).map(([path, p]) => [path, this.problemText(v, path, p)]))
      : undefined;
    emit(this, 'billing-pay-error', { code: failure.code, message, ...(fields && { fields }) });
    // A repeated "Try again" took its button away while it loaded: give the focus back to the new one.
    if (label && this.configFailures < 2) return;
    void this.updateComplete.then(() => {
      const root = this.renderRoot as ShadowRoot;
      const target =
        root.querySelector<HTMLElement>('[aria-invalid="true"]') ?? (root.activeElement ? null : root.querySelector('button'));
      target?.focus();
    });
  }

  /** The text of a field's problem; "no agreement found" is worded for the lookup kind in use. */
  private problemText(v: View, path: string, key: string): string {
    return problemOf(v.t, key, path === 'agreement_param_value' ? LOOKUP_KEYS[v.kind] : undefined);
  }

  /** Sends the top page to the payment system (or this frame, when the top page is out of reach). */
  protected navigate(url: string): void {
    try {
      (window.top ?? window).location.assign(url);
    } catch {
      window.location.assign(url);
    }
  }

  /** The agreement the client does not type: the merchant's preset, else the one the session names. */
  private get preset(): string {
    return this.agreement || this.sessionAgreement;
  }

  private get busy(): boolean {
    return this.submitState === 'validating' || this.submitState === 'sending' || this.submitState === 'redirecting';
  }

  private textField(
    v: View,
    o: { name: ValueKey; label: string; optional?: boolean; type?: string; inputmode?: string; autocomplete?: string; readonly?: boolean },
    used: Set<string>,
  ): TemplateResult {
    const path = PATH_OF[o.name];
    used.add(path);
    const problem = this.problems[path];
    const id = `f-${o.name}`;
    return html`<div class="field" part="field">
      <label for=${id} part="label"
        >${o.label}${o.optional ? html` <span class="optional">(${v.t.labels.optional})</span>` : nothing}</label
      >
      <input
        id=${id}
        name=${o.name}
        part="input"
        type=${o.type ?? 'text'}
        inputmode=${o.inputmode ?? nothing}
        autocomplete=${o.autocomplete ?? 'off'}
        maxlength="500"
        ?readonly=${o.readonly}
        ?required=${!o.optional}
        aria-invalid=${problem ? 'true' : 'false'}
        aria-describedby=${problem ? `${id}-error` : nothing}
        .value=${this.values[o.name]}
        @input=${this.onInput}
      />
      ${this.error(v, `${id}-error`, problem, path)}
    </div>`;
  }

  private error(v: View, id: string, problem: string | undefined, path = ''): TemplateResult | typeof nothing {
    return problem ? html`<p id=${id} class="error" part="error">${this.problemText(v, path, problem)}</p>` : nothing;
  }

  private renderSystems(v: View, used: Set<string>): TemplateResult {
    used.add('system');
    const problem = this.problems.system;
    const labels: Record<SystemId, string> = { A: this.labelA, B: this.labelB, C: this.labelC };
    return html`<fieldset part="systems" aria-describedby=${problem ? 'system-error' : nothing}>
      <legend part="legend">${v.t.labels.system}</legend>
      <div class="options">
        ${v.systems.map(
          (s) => html`<span class="check">
            <input
              type="radio"
              part="radio"
              name="system"
              id="system-${s.id}"
              value=${s.id}
              aria-invalid=${problem ? 'true' : 'false'}
              .checked=${s.id === v.system?.id}
              @change=${this.onSystem}
            />
            <label for="system-${s.id}" part="label"
              >${v.t.systems[s.id] || labels[s.id] || fill(v.t.labels.system_name, { id: s.id })}</label
            >
          </span>`,
        )}
      </div>
      ${this.error(v, 'system-error', problem)}
    </fieldset>`;
  }

  private renderLookup(v: View, used: Set<string>): TemplateResult {
    const kindName = v.t.kinds[LOOKUP_KEYS[v.kind]];
    if (this.preset) {
      return html`<p class="preset" part="preset"><span class="label">${kindName}:</span> ${this.preset}</p>`;
    }
    const kindProblem = this.problems.agreement_param_id;
    let chooser: TemplateResult | typeof nothing = nothing;
    if (v.kinds.length > 1) {
      used.add('agreement_param_id');
      chooser = html`<div class="field" part="field">
        <label for="f-kind" part="label">${v.t.labels.lookup_kind}</label>
        <select
          id="f-kind"
          part="select"
          aria-invalid=${kindProblem ? 'true' : 'false'}
          aria-describedby=${kindProblem ? 'f-kind-error' : nothing}
          @change=${this.onKind}
        >
          ${v.kinds.map((k) => html`<option value=${k} ?selected=${k === v.kind}>${v.t.kinds[LOOKUP_KEYS[k]]}</option>`)}
        </select>
        ${this.error(v, 'f-kind-error', kindProblem)}
      </div>`;
    }
    const numeric = [10, 11, 14, 15].includes(v.kind);
    return html`${chooser}${this.textField(
      v,
      {
        name: 'lookupValue',
        label: kindName,
        type: v.kind === 7 ? 'email' : 'text',
        inputmode: numeric ? 'numeric' : undefined,
        autocomplete: AUTOCOMPLETE[v.kind],
      },
      used,
    )}`;
  }

  private renderSave(v: View, used: Set<string>): TemplateResult | typeof nothing {
    if (!v.system || !v.canSave) return nothing;
    const flags = [...Object.keys(SYSTEMS[v.system.id].autopay ?? {}), ...Object.keys(SYSTEMS[v.system.id].linkOnly ?? {})];
    const path = flags.map((f) => `eps_params.${f}`).find((p) => this.problems[p]);
    for (const f of flags) used.add(`eps_params.${f}`);
    return html`<div class="field" part="field">
      <div class="check">
        <input
          type="checkbox"
          part="checkbox"
          id="f-save"
          aria-invalid=${path ? 'true' : 'false'}
          aria-describedby=${path ? 'f-save-error' : nothing}
          .checked=${this.save}
          @change=${this.onSave}
        />
        <label for="f-save" part="label">${v.t.labels.save}</label>
      </div>
      ${this.save
        ? html`<div class="check">
              <input type="checkbox" part="checkbox" id="f-autopay" checked disabled aria-describedby="f-autopay-hint" />
              <label for="f-autopay" part="label">${v.t.labels.autopay}</label>
            </div>
            <p id="f-autopay-hint" class="hint" part="hint">${v.t.labels.autopay_hint}</p>
            ${v.linkOnly
              ? html`<div class="check">
                    <input
                      type="checkbox"
                      part="checkbox"
                      id="f-link-only"
                      aria-describedby="f-link-only-hint"
                      .checked=${this.linkOnly}
                      @change=${this.onLinkOnly}
                    />
                    <label for="f-link-only" part="label">${v.t.labels.link_only}</label>
                  </div>
                  <p id="f-link-only-hint" class="hint" part="hint">${v.t.labels.link_only_hint}</p>`
              : nothing}`
        : nothing}
      ${this.error(v, 'f-save-error', path && this.problems[path])}
    </div>`;
  }

  /** The text of the live region: progress, or what went wrong (with the problems no field shows). */
  private statusText(v: View, used: Set<string>): string {
    const { labels } = v.t;
    if (this.state === 'loading') return labels.loading;
    if (this.state === 'failed') return labels.error_config;
    if (!v.systems.length) return labels.no_systems;
    if (this.submitState === 'sending') return labels.sending;
    if (this.submitState === 'redirecting') return labels.redirecting;
    if (this.submitState !== 'error' || !this.failure) return '';
    const unshown = Object.entries(this.problems)
      .filter(([path]) => !used.has(path))
      .map(([path, p]) => `${fieldLabel(v, path, this.preset)}: ${this.problemText(v, path, p)}`);
    return [failureText(v, this.failure), ...unshown].join(' ');
  }

  override render(): TemplateResult {
    const v = this.view();
    const { labels } = v.t;
    const used = new Set<string>();
    const ready = this.state === 'ready' && v.system;
    const linking = v.linkOnly && this.save && this.linkOnly;
    const content = ready
      ? html`${this.renderSystems(v, used)}
        ${this.textField(
          v,
          {
            name: 'amount',
            label: this.currency ? fill(labels.amount_currency, { currency: this.currency }) : labels.amount,
            inputmode: 'decimal',
            autocomplete: 'transaction-amount',
            readonly: this.amountFixed && Boolean(this.amount),
          },
          used,
        )}
        ${this.renderLookup(v, used)}
        ${TEXT_PARAMS.filter((name) => takes(v.system!.id, name)).map((name) =>
          this.textField(
            v,
            {
              name,
              label: labels[name],
              optional: true,
              type: name === 'email' ? 'email' : name === 'phone' ? 'tel' : 'text',
              autocomplete: name === 'comment' ? 'off' : name === 'email' ? 'email' : name === 'phone' ? 'tel' : 'name',
            },
            used,
          ),
        )}
        ${this.renderSave(v, used)}`
      : nothing;
    const status = this.statusText(v, used);
    const failed = this.submitState === 'error' || this.state === 'failed';
    return html`<form part="form" lang=${v.locale} novalidate aria-label=${labels.form} @submit=${this.onSubmit}>
      ${content}
      <p class="status ${failed ? 'error' : ''}" part="status" role="status">${status}</p>
      ${this.state === 'failed' && this.relay
        ? html`<button part="button" type="button" @click=${this.onRetry}>${labels.retry}</button>`
        : nothing}
      ${ready
        ? html`<button part="button" type="submit" ?disabled=${this.busy}>${linking ? labels.link : labels.pay}</button>
            <p class="note" part="note">${labels.card_note}</p>`
        : nothing}
    </form>`;
  }
}

/** Which request path each text field fills. */
const PATH_OF: Record<ValueKey, string> = {
  amount: 'amount',
  lookupValue: 'agreement_param_value',
  email: 'eps_params.email',
  phone: 'eps_params.phone',
  name: 'eps_params.name',
  comment: 'eps_params.comment',
};

const AUTOCOMPLETE: Partial<Record<LookupKind, string>> = { 1: 'username', 4: 'name', 7: 'email' };

function toPayError(error: unknown): PayError {
  return error instanceof PayError ? error : new PayError('relay', 'internal_error', String(error), { cause: error });
}

/**
 * What the payer is told of a failure: the text of its code (an unknown one, such as a proxy's `http_502`, is a fault of
 * the site), with when to try again, and another system suggested only where one may help.
 */
function failureText(v: View, failure: PayError): string {
  const { errors, labels } = v.t;
  const text = (errors as Record<string, string>)[failure.code] ?? errors.internal_error;
  const seconds = failure.retryAfter ?? 60;
  const [count, unit] = seconds >= 60 ? [Math.ceil(seconds / 60), 'minute' as const] : [seconds, 'second' as const];
  const other = failure.code === 'billing_rejected' && v.systems.length > 1 ? ` ${labels.other_system}` : '';
  return fill(text, { wait: new Intl.RelativeTimeFormat(v.locale).format(count, unit) }) + other;
}

/** The name of a field that has no control of its own in the form (a return address, a preset agreement…). */
function fieldLabel(v: View, path: string, agreement: string): string {
  if (path === 'agreement_param_value' && agreement) return v.t.kinds[LOOKUP_KEYS[v.kind]];
  if (path === 'agreement_param_id') return v.t.labels.lookup_kind;
  if (path === 'system') return v.t.labels.system;
  if (/url/.test(path)) return v.t.labels.return_url;
  return path;
}
