/**
 * `<billing-pay>`'s submit chain, loaded after the first screen (late/pay.late.ts): the check of a field the payer
 * leaves and of the whole form on Pay, the payment sent and its answer followed, the relay's question about the same
 * payment sent a moment ago, and the autopayment disclosure. The element lends it what it needs through a
 * `CheckoutPort`.
 */
import { html, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { PaymentRequest } from '../eps/request.js';
import { Attempt } from './attempt.js';
import { disclosure } from './autopay-disclosure.js';
import { emit } from './events.js';
import { checkForm, type FormCheck } from './form-check.js';
import { withoutProblems, PATHS_OF, type FormInput, type FormView, type ValueKey } from './form-model.js';
import { framedError, framingRefused } from './framing.js';
import { errorLine, failureText, problemText, whole } from './checkout-messages.js';
import { fill, type FirstTexts, type Speech, type Texts } from './i18n.js';
import { PayError } from './pay-error.js';
import { dateFormatOf } from './formats.js';
import type { FieldsContext } from './billing-pay-fields.js';
import type { PayerEntries } from './payer-entries.js';
import type { PaymentReturn } from './payment-return.js';
import { earlierAt, PaymentSender, type SubmitState } from './payment-sender.js';

const IDLE: SubmitState = { name: 'idle' };

/** A time of day in the locale's words (`12:03`). */
export function timeOf(iso: string, locale: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateFormatOf(locale, { hour: 'numeric', minute: '2-digit' }).format(date);
}

/** What the submit chain reads and changes of its element. */
export interface CheckoutPort {
  host: HTMLElement & ReactiveControllerHost;
  relay(): string;
  speech(): Speech<FirstTexts>;
  input(): FormInput;
  view(): FormView;
  entries: PayerEntries;
  returned: PaymentReturn;
  /** `return-url` resolved against the page. */
  returnAddress(): string;
  submit(): SubmitState;
  setSubmit(state: SubmitState): void;
  /** The element's `frame-origins`: where it may act when framed. */
  frameOrigins(): string;
  /** Shows a failure and tells the page (`billing-pay-error`). */
  report(failure: PayError): void;
  navigate(url: string): void;
  focusLater(selector: string): Promise<void>;
}

export class Checkout {
  private readonly sender: PaymentSender;
  /** This element's attempt: the return addresses that name it, remembered before the page is left. */
  private readonly attempt: Attempt;

  constructor(private readonly port: CheckoutPort) {
    this.sender = new PaymentSender(port.host);
    this.attempt = new Attempt(port.returned);
  }

  /** The element's texts, whole now (checkout-messages.ts). */
  private texts(): Texts {
    return whole(this.port.speech().t);
  }

  /** The autopayment disclosure (autopay-disclosure.ts). */
  disclosure = (c: FieldsContext): TemplateResult => disclosure(c, this.texts());

  /** The text of a field's problem (a problem key, or a text from the relay). */
  problemText = (path: string, key: string): string => problemText(this.texts(), this.port.view().kind, path, key);

  /** The status line of a failure, with the problems no field shows. */
  errorLine = (failure: PayError): string =>
    errorLine(this.texts(), this.port.speech().locale, this.port.view(), this.port.entries.value.problems, failure);

  /** A failure's text, for the page's `billing-pay-error`. */
  failureText(failure: PayError): string {
    return failureText(this.texts(), this.port.speech().locale, failure, this.port.view().systems.length > 1);
  }

  /** The texts of a refused payment's fields, for the page's `billing-pay-error` (as the fields show them). */
  fieldTexts(fields: Record<string, string>): Record<string, string> {
    const { problems } = this.port.entries.value;
    return Object.fromEntries(
      Object.keys(fields).map((path) => [path, this.problemText(path, problems[path] ?? fields[path]!)]),
    );
  }

  /** The model's check of the whole form, with this element's return addresses. */
  private check(v: FormView): FormCheck {
    const returnUrl = this.port.returnAddress();
    return checkForm(v, this.port.input(), {
      locale: this.port.speech().locale,
      returnUrl: this.attempt.returnUrl(returnUrl),
      failUrl: this.attempt.failUrl(returnUrl),
    });
  }

  /** A text field left after an edit, or typed into while it shows an error: its problem, as the model finds it now. */
  checkField(name: ValueKey): void {
    const { entries } = this.port;
    const paths = PATHS_OF[name];
    const v = this.port.view();
    // No form, no check: Chromium fires `change` at a changed field as the form is taken away (config reloading).
    const found = v.system ? (this.check(v) as Partial<FormCheck & { ok: false }>).problems : undefined;
    const problems = withoutProblems(entries.value.problems, ...paths);
    const path = paths.find((p) => found?.[p]);
    entries.set({ problems: path ? { ...problems, [path]: found![path]! } : problems });
  }

  /**
   * Whether the element must not act now: the page is in a frame of an origin `frame-origins` does not name. Asked at
   * the moment of acting, as a frame can be put around the page later.
   */
  framed(): boolean {
    return framingRefused(this.port.frameOrigins());
  }

  /**
   * One press of Pay, after Adyen Web's `UIElement.submit`: an invalid form shows its problems and stops; a valid one
   * is announced (`billing-pay-submit`, cancelable) and sent (`send`).
   */
  async pay(): Promise<void> {
    const { port } = this;
    const v = port.view();
    // Framed by a page of another origin (clickjacking): nothing is sent.
    if (this.framed()) {
      port.report(framedError());
      return;
    }
    port.returned.clear();
    port.setSubmit({ name: 'checking' });
    const form = this.check(v);
    if (!form.ok) {
      port.entries.set({ problems: form.problems });
      port.report(new PayError('validation', 'validation_failed', 'The form is not valid.', { fields: form.problems }));
      return;
    }
    port.entries.set({ problems: {} });
    await this.send(form.request);
  }

  /**
   * Sends a checked request, after `billing-pay-submit` (cancelable), and verifies the answer (`PaymentSender`); the
   * payment page is announced (`billing-pay-redirect`, cancelable) and followed. The relay's question about the same
   * payment sent a moment ago is put to the payer; `confirm`: their "Pay again".
   */
  private async send(request: PaymentRequest, confirm = false): Promise<void> {
    const { port } = this;
    // A copy: a listener reads what is sent, and cannot change it after the check.
    if (!emit(port.host, 'billing-pay-submit', structuredClone(request), { cancelable: true })) {
      port.setSubmit(IDLE);
      return;
    }
    port.setSubmit({ name: 'sending' });
    let sent;
    try {
      // Remembering the attempt needs the return module: it is here before anything is sent.
      sent = await this.sender.send(port.relay(), request, {
        confirmDuplicate: confirm,
        needs: port.returned.preload(),
      });
    } catch (error) {
      const failure = error as PayError;
      const at = earlierAt(failure);
      if (at !== null) {
        port.setSubmit({ name: 'duplicate', request, earlierAt: at });
        void port.focusLater('[part~="question"] .secondary');
        return;
      }
      if (failure.fields) port.entries.set({ problems: { ...failure.fields } });
      port.report(failure);
      return;
    }
    if (sent === null) {
      port.setSubmit(IDLE);
      return;
    }
    const { url } = sent;
    port.setSubmit({ name: 'redirecting', url });
    if (emit(port.host, 'billing-pay-redirect', { url }, { cancelable: true })) {
      // Only linking a card: its test payment is cancelled, so there is no payment to tell of on the way back.
      const { save, linkOnly } = port.entries.value;
      const linking = port.view().linkOnly && save && linkOnly;
      if (!linking) void this.attempt.remember(request, sent.paymentId, port.returnAddress());
      port.navigate(url);
    } else port.setSubmit(IDLE);
  }

  /** "Pay again" to the duplicate question: the same request, sent knowingly. */
  private onPayAgain = () => {
    const submit = this.port.submit();
    if (submit.name !== 'duplicate') return;
    // A frame may have been put around the page since the first press.
    if (this.framed()) this.port.report(framedError());
    else void this.send(submit.request, true);
  };

  /** "Cancel" to the duplicate question: back to the form as it was. */
  private onCancelDuplicate = () => {
    this.port.setSubmit(IDLE);
    void this.port.focusLater('button[type="submit"]');
  };

  /** The duplicate question: its line (the status) and its two answers. */
  question(earlier: string): { said: string; answers: TemplateResult } {
    const { labels } = this.texts();
    const { locale } = this.port.speech();
    return {
      said: fill(labels.duplicate_question, { time: timeOf(earlier, locale) }),
      answers: html`<div class="actions" part="question" role="group" aria-labelledby="status">
        <button part="button" type="button" @click=${this.onPayAgain}>${labels.pay_again}</button>
        <button part="button" class="secondary" type="button" @click=${this.onCancelDuplicate}>${labels.cancel}</button>
      </div>`,
    };
  }
}
