/**
 * The widget's texts in English and Russian: every label, status and error, every lookup kind and every problem key
 * a form the widget sends can have (`FORM_PROBLEM_TEXTS_EN`; any other gets "correct the highlighted fields"). The language is read when it is needed (never when the module loads): the element's `lang`
 * attribute, else the closest `[lang]` ancestor (crossing shadow roots), else the document's language.
 *
 * A page may override any text, or add a language, without a fork: see `TextOverrides` and `resolveTexts`.
 */
import type { ErrorCode } from '../eps/errors.js';
import type { LOOKUP_KEYS } from '../eps/lookup.js';
import { FORM_PROBLEM_TEXTS_EN, type FormProblemKey } from '../eps/messages.js';
import type { SystemId } from '../eps/systems.js';
import type { PaymentMethodsTexts } from './payment-methods.i18n.js';

export type Lang = 'en' | 'ru';

const LABELS_EN = {
  form: 'Payment',
  system: 'Payment system',
  system_name: 'System {id}',
  amount: 'Amount',
  amount_currency: 'Amount, {currency}',
  lookup_kind: 'Find the agreement by',
  email: 'E-mail for receipt',
  phone: 'Phone',
  name: 'Name',
  comment: 'Comment',
  optional: 'optional',
  save: 'Save payment method',
  autopay: 'Connect autopayments',
  autopay_hint: 'A saved payment method is always used for autopayments.',
  link_only: 'Only link the card (no charge)',
  link_only_hint: 'A test payment is made and then cancelled.',
  pay: 'Pay',
  link: 'Link card',
  sending: 'Sending the payment…',
  redirecting: 'Opening the payment page…',
  loading: 'Loading payment options…',
  card_note: 'You pay on the payment system’s own page; card details are never entered here.',
  return_url: 'Return address',
  error_config: 'Payment options could not be loaded.',
  retry: 'Try again',
  other_system: 'You can also choose another payment system.',
  no_systems: 'No payment system is available.',
  return_sent:
    'Payment {id} of {amount} ({kind}: {agreement}) was sent to {system}. The balance changes once it is confirmed.',
  return_failed: 'Payment {id} of {amount} ({kind}: {agreement}) was not completed. Nothing was charged.',
};

export type LabelKey = keyof typeof LABELS_EN;
export type KindKey = (typeof LOOKUP_KEYS)[keyof typeof LOOKUP_KEYS];
/** The widget's own failure codes, beside the relay's `ErrorCode`s. */
export type WidgetErrorCode = 'network_error' | 'timeout' | 'bad_answer' | 'unsafe_redirect';
/**
 * Codes the payer can do nothing about but try later or tell the shop (the site's mistakes, a billing that is down or
 * does not accept the relay, a page whose origin the relay does not allow): `internal_error`'s text serves them all
 * (a page may still give one its own).
 */
export type FaultCode =
  | 'invalid_json'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'invalid_idempotency_key'
  | 'idempotency_key_reused'
  | 'not_found'
  | 'not_ready'
  | 'session_invalid'
  | 'sessions_disabled'
  | 'bad_answer'
  | 'billing_error'
  | 'origin_not_allowed';
/** What the payer is told for each error code; `{wait}`: when to try again ("in 30 seconds"). */
export type ErrorTexts = Record<Exclude<ErrorCode | WidgetErrorCode, FaultCode>, string> &
  Partial<Record<FaultCode, string>>;

/**
 * One language: labels, the names of the lookup kinds, the problem keys of a form, what the payer is told for each
 * error code, the "no agreement found" text of each lookup kind, and the payment systems' names (none built in).
 */
export interface Texts {
  labels: Record<LabelKey, string>;
  kinds: Record<KindKey, string>;
  problems: Record<FormProblemKey, string>;
  errors: ErrorTexts;
  missing: Record<KindKey, string>;
  systems: Partial<Record<SystemId, string>>;
}

const FIX_EN = 'Please correct the highlighted fields.';
const BUSY_EN = 'The payment service is busy. Try again {wait}.';
const LATE_EN = 'No answer came in time: the payment may have been made. Check before paying again.';

const EN: Texts = {
  labels: LABELS_EN,
  kinds: {
    login: 'Login',
    full_name: 'Full name',
    agreement_number: 'Agreement number',
    accounting_code: 'Agreement code',
    email: 'E-mail',
    account_number: 'Account number',
    client_id: 'Client ID',
    agreement_id: 'Agreement ID',
    invoice_id: 'Invoice number',
    taxpayer_number: 'Taxpayer number (INN)',
  },
  problems: FORM_PROBLEM_TEXTS_EN,
  errors: {
    validation_failed: FIX_EN,
    agreement_not_found: FIX_EN,
    internal_error: 'A fault on this site stopped the payment. Try again later or contact the shop.',
    idempotency_in_flight: 'Your payment is still being processed. Try again {wait}.',
    idempotency_outcome_unknown:
      'Your earlier attempt could not be confirmed: it may have been paid. Check your balance before you pay again.',
    rate_limited: 'Too many attempts. Try again {wait}.',
    billing_rejected: 'The payment system did not accept this payment.',
    billing_unavailable: BUSY_EN,
    store_unavailable: BUSY_EN,
    // The billing may have acted: never invite a blind second payment.
    billing_timeout: LATE_EN,
    timeout: LATE_EN,
    network_error: 'The payment service could not be reached. Check the connection and try again.',
    unsafe_redirect: 'The payment page address is not safe, so it was not opened.',
  },
  missing: {
    login: 'No client with this login.',
    full_name: 'No client with this name.',
    agreement_number: 'No agreement with this number.',
    accounting_code: 'No agreement with this code.',
    email: 'No client with this e-mail.',
    account_number: 'No account with this number.',
    client_id: 'No client with this ID.',
    agreement_id: 'No agreement with this ID.',
    invoice_id: 'No invoice with this number.',
    taxpayer_number: 'No client with this taxpayer number.',
  },
  systems: {},
};

const FIX_RU = 'Исправьте отмеченные поля.';
const BUSY_RU = 'Платёжный сервис перегружен. Попробуйте ещё раз {wait}.';
const LATE_RU = 'Ответ не пришёл вовремя: платёж мог пройти. Проверьте, прежде чем платить снова.';

const RU: Texts = {
  labels: {
    form: 'Оплата',
    system: 'Платёжная система',
    system_name: 'Система {id}',
    amount: 'Сумма',
    amount_currency: 'Сумма, {currency}',
    lookup_kind: 'Найти договор по',
    email: 'E-mail для чека',
    phone: 'Телефон',
    name: 'Имя',
    comment: 'Комментарий',
    optional: 'необязательно',
    save: 'Сохранить способ оплаты',
    autopay: 'Подключить автоплатежи',
    autopay_hint: 'Сохранённый способ оплаты всегда используется для автоплатежей.',
    link_only: 'Только привязать карту (без списания)',
    link_only_hint: 'Проводится тестовый платёж, который затем отменяется.',
    pay: 'Оплатить',
    link: 'Привязать карту',
    sending: 'Отправляем платёж…',
    redirecting: 'Открываем страницу оплаты…',
    loading: 'Загружаем способы оплаты…',
    card_note: 'Оплата проходит на странице платёжной системы; данные карты здесь не вводятся.',
    return_url: 'Адрес возврата',
    error_config: 'Не удалось загрузить способы оплаты.',
    retry: 'Попробовать снова',
    other_system: 'Можно также выбрать другую платёжную систему.',
    no_systems: 'Нет доступных платёжных систем.',
    return_sent:
      'Платёж {id} на {amount} ({kind}: {agreement}) передан в платёжную систему «{system}». Баланс изменится, когда она его подтвердит.',
    return_failed: 'Платёж {id} на {amount} ({kind}: {agreement}) не завершён. Деньги не списаны.',
  },
  kinds: {
    login: 'Логин',
    full_name: 'ФИО',
    agreement_number: 'Номер договора',
    accounting_code: 'Код договора',
    email: 'E-mail',
    account_number: 'Лицевой счёт',
    client_id: 'ID клиента',
    agreement_id: 'ID договора',
    invoice_id: 'Номер счёта на оплату',
    taxpayer_number: 'ИНН',
  },
  problems: {
    system: 'Выберите одну из предложенных платёжных систем.',
    amount_format: 'Введите сумму, например 1500 или 1500,50.',
    amount_decimals: 'В сумме не больше двух знаков после запятой.',
    amount_positive: 'Сумма должна быть больше нуля.',
    amount_max: 'Сумма больше допустимой.',
    lookup_kind: 'Такой способ поиска договора не предлагается.',
    required: 'Заполните это поле.',
    too_long: 'Слишком длинное значение.',
    email: 'Введите адрес эл. почты, например name@example.com.',
    digits: 'Введите только цифры.',
    full_name: 'Введите ФИО буквами.',
    code: 'Введите значение без пробелов и спецсимволов.',
    inn: 'Неверный ИНН (проверьте цифры).',
    url: 'Введите полный адрес http(s).',
    phone: 'Введите телефон, например +7 900 123-45-67.',
    text: 'Текст содержит недопустимые символы.',
    origin: 'Этот адрес не относится к сайтам продавца.',
    agreement_not_found: 'Договор не найден.',
  },
  errors: {
    validation_failed: FIX_RU,
    agreement_not_found: FIX_RU,
    internal_error: 'Сбой на сайте помешал платежу. Попробуйте позже или обратитесь в магазин.',
    idempotency_in_flight: 'Платёж ещё обрабатывается. Попробуйте ещё раз {wait}.',
    idempotency_outcome_unknown:
      'Не удалось подтвердить предыдущую попытку: платёж мог пройти. Проверьте баланс, прежде чем платить снова.',
    rate_limited: 'Слишком много попыток. Попробуйте ещё раз {wait}.',
    billing_rejected: 'Платёжная система не приняла этот платёж.',
    billing_unavailable: BUSY_RU,
    store_unavailable: BUSY_RU,
    billing_timeout: LATE_RU,
    timeout: LATE_RU,
    network_error: 'Не удалось связаться с платёжным сервисом. Проверьте соединение и попробуйте ещё раз.',
    unsafe_redirect: 'Адрес страницы оплаты небезопасен, поэтому он не открыт.',
  },
  missing: {
    login: 'Клиент с таким логином не найден.',
    full_name: 'Клиент с таким ФИО не найден.',
    agreement_number: 'Договор с таким номером не найден.',
    accounting_code: 'Договор с таким кодом не найден.',
    email: 'Клиент с таким e-mail не найден.',
    account_number: 'Лицевой счёт с таким номером не найден.',
    client_id: 'Клиент с таким ID не найден.',
    agreement_id: 'Договор с таким ID не найден.',
    invoice_id: 'Счёт с таким номером не найден.',
    taxpayer_number: 'Клиент с таким ИНН не найден.',
  },
  systems: {},
};

export const TEXTS: Record<Lang, Texts> = { en: EN, ru: RU };

/** `'ru'` for any Russian tag (`ru`, `ru-RU`), else `'en'`. */
export function toLang(tag: string | null | undefined): Lang {
  return /^ru\b/i.test(tag ?? '') ? 'ru' : 'en';
}

/**
 * The language tag in effect for an element (`'ru-RU'`, `'de'`, or `''` when nothing says): its own `lang`, else the
 * nearest ancestor's (through shadow roots), else the document's. Read on demand.
 */
export function langTagOf(el: Element): string {
  for (let node: Element | null = el; node;) {
    const tag = node.getAttribute('lang');
    if (tag) return tag;
    node = node.parentElement ?? ((node.getRootNode() as ShadowRoot).host || null);
  }
  return el.ownerDocument.documentElement.lang;
}

/** The built-in language of an element (`'ru'` or `'en'`), from `langTagOf`. */
export function langOf(el: Element): Lang {
  return toLang(langTagOf(el));
}

/**
 * Any of the texts of one language, each optional: what a page overrides. One object serves both elements:
 * `<billing-pay>` reads `labels`, `kinds`, `problems`, `errors`, `missing` and `systems`; `<billing-payment-methods>` reads
 * `methods` (and the one label it shares: `system_name`).
 */
export interface TextOverrides {
  labels?: Partial<Record<LabelKey, string>>;
  kinds?: Partial<Record<KindKey, string>>;
  problems?: Partial<Record<FormProblemKey, string>>;
  errors?: Partial<Texts['errors']>;
  missing?: Partial<Record<KindKey, string>>;
  /** The payment systems' names in this language (`{A: 'Bank card'}`); they win over `label-a`, `label-b`, `label-c`. */
  systems?: Partial<Record<SystemId, string>>;
  /** The texts of `<billing-payment-methods>`: the keys of `PAYMENT_METHODS_TEXTS.en`. */
  methods?: Partial<PaymentMethodsTexts>;
}

/**
 * What a page may set as the `texts` property (or, as JSON, the `texts` attribute): overrides for every language
 * (`{labels: {pay: 'Pay now'}}`), or per language tag (`{ru: {labels: {…}}, de: {labels: {…}, kinds: {…}}}`).
 * A tag that is not built in (`de`) becomes a language of its own: its overrides on top of English.
 */
export type TextsOption = TextOverrides | Record<string, TextOverrides>;

/** The texts and the locale (for `Intl`) an element speaks in. */
export interface Speech<T = Texts> {
  /** The locale of the texts, for `Intl` (`'ru-RU'`, `'de'`, `'en'`). */
  locale: string;
  t: T;
}

/** The parts of `TextOverrides`: an option that has one of them at its top is flat (for every language). */
const PARTS = ['labels', 'kinds', 'problems', 'errors', 'missing', 'systems', 'methods'];

/**
 * The texts of an element for a language tag: its built-in language (`ru`, else English), with the page's overrides
 * on top — those for every language, then those for the tag's language (`de`), then for the exact tag (`de-CH`). A tag
 * with neither built-in texts nor overrides falls back to English (and English number formats). `builtIn` holds the
 * element's parts (`labels`, `methods`, …) in each built-in language; each part is merged key by key.
 */
export function layerTexts<T extends object>(
  tag: string,
  option: TextsOption | null | undefined,
  builtIn: Record<Lang, T>,
): Speech<T> {
  const exact = tag.toLowerCase();
  const primary = exact.split('-')[0]!;
  const flat = option && PARTS.some((part) => part in option);
  const byTag: Record<string, TextOverrides> =
    flat || !option ? {} : Object.fromEntries(Object.entries(option).map(([k, v]) => [k.toLowerCase(), v]));
  const own = [primary, exact].flatMap((key) => (key && Object.hasOwn(byTag, key) ? [byTag[key]!] : []));
  const known = own.length > 0 || primary === 'ru' || primary === 'en';
  const layers = [flat ? (option as TextOverrides) : {}, ...own] as Record<string, object | undefined>[];
  const t = Object.fromEntries(
    Object.entries(builtIn[toLang(primary)]).map(([part, texts]) => [
      part,
      Object.assign({}, texts, ...layers.map((layer) => layer[part])),
    ]),
  ) as T;
  return { locale: (known && tag) || 'en', t };
}

/** The texts of `<billing-pay>` for a language tag, with the page's `texts` (see `layerTexts`). */
export function resolveTexts(tag: string, option?: TextsOption | null): Speech {
  return layerTexts(tag, option, TEXTS);
}

/** Fills `{name}` placeholders. */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * The text of a problem key (the relay sends keys, never sentences). "No agreement found" is worded for the lookup kind
 * in use; a key this version does not know gets the general "correct the highlighted fields".
 */
export function problemOf(t: Texts, key: string, kind?: KindKey): string {
  if (key === 'agreement_not_found' && kind) return t.missing[kind];
  return (t.problems as Record<string, string>)[key] ?? t.errors.validation_failed;
}

/** `problemOf` with the built-in texts of `lang`. */
export function problemIn(lang: Lang, key: string): string {
  return problemOf(TEXTS[lang], key);
}
