/**
 * The widget's texts in English and Russian: every label, status and error, every lookup kind and every problem key
 * of the shared model. The language is read when it is needed (never when the module loads): the element's `lang`
 * attribute, else the closest `[lang]` ancestor (crossing shadow roots), else the document's language.
 *
 * A page may override any text, or add a language, without a fork: see `TextOverrides` and `resolveTexts`.
 */
import type { LOOKUP_KEYS } from '../eps/lookup.js';
import { PROBLEM_TEXTS_EN, type ProblemKey } from '../eps/messages.js';
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
  invalid: 'Please correct the highlighted fields.',
  return_url: 'Return address',
  error_network: 'The payment service could not be reached. Check the connection and try again.',
  error_timeout: 'The payment service did not answer in time. Try again.',
  error_relay: 'The payment could not be started. Try again later.',
  error_billing: 'The payment system did not accept the payment. Try again later or choose another system.',
  error_origin: 'Payments cannot be started from this page.',
  error_redirect: 'The payment page address is not safe, so it was not opened.',
  error_config: 'Payment options could not be loaded.',
  no_systems: 'No payment system is available.',
};

export type LabelKey = keyof typeof LABELS_EN;
export type KindKey = (typeof LOOKUP_KEYS)[keyof typeof LOOKUP_KEYS];

/** One language: labels, the names of the lookup kinds, and the problem keys of the model. */
export interface Texts {
  labels: Record<LabelKey, string>;
  kinds: Record<KindKey, string>;
  problems: Record<ProblemKey, string>;
}

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
  problems: PROBLEM_TEXTS_EN,
};

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
    invalid: 'Исправьте отмеченные поля.',
    return_url: 'Адрес возврата',
    error_network: 'Не удалось связаться с платёжным сервисом. Проверьте соединение и попробуйте ещё раз.',
    error_timeout: 'Платёжный сервис не ответил вовремя. Попробуйте ещё раз.',
    error_relay: 'Не удалось начать платёж. Попробуйте позже.',
    error_billing: 'Платёжная система не приняла платёж. Попробуйте позже или выберите другую систему.',
    error_origin: 'С этой страницы нельзя начать платёж.',
    error_redirect: 'Адрес страницы оплаты небезопасен, поэтому он не открыт.',
    error_config: 'Не удалось загрузить способы оплаты.',
    no_systems: 'Нет доступных платёжных систем.',
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
    body: 'Тело запроса должно быть объектом JSON.',
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
    eps_params: 'Параметры платежа должны быть списком {name, value}.',
    param_name: 'У каждого параметра должно быть имя.',
    too_many_params: 'Слишком много параметров.',
    unknown_param: 'Выбранная платёжная система не принимает этот параметр.',
    duplicate_param: 'Параметр указан дважды.',
    boolean: 'Значение должно быть «да» или «нет».',
    url: 'Введите полный адрес http(s).',
    phone: 'Введите телефон, например +7 900 123-45-67.',
    text: 'Текст содержит недопустимые символы.',
    token: 'Недопустимое значение.',
    autopay_rule: 'Сохранение способа оплаты подключает автоплатежи: флаги сохранения и автоплатежей идут вместе.',
    link_rule: 'Для привязки карты нужно сохранить способ оплаты.',
    origin: 'Этот адрес не относится к сайтам продавца.',
    agreement_not_found: 'Договор не найден.',
  },
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
  for (let node: Element | null = el; node; ) {
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
 * `<billing-pay>` reads `labels`, `kinds` and `problems`; `<billing-payment-methods>` reads `methods` (and the few
 * `labels` it shares: `system_name`, `error_network`, `error_timeout`).
 */
export interface TextOverrides {
  labels?: Partial<Record<LabelKey, string>>;
  kinds?: Partial<Record<KindKey, string>>;
  problems?: Partial<Record<ProblemKey, string>>;
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
const PARTS = ['labels', 'kinds', 'problems', 'methods'];

/**
 * The texts of an element for a language tag: its built-in language (`ru`, else English), with the page's overrides
 * on top — those for every language, then those for the tag's language (`de`), then for the exact tag (`de-CH`). A tag
 * with neither built-in texts nor overrides falls back to English (and English number formats). `builtIn` holds the
 * element's parts (`labels`, `methods`, …) in each built-in language; each part is merged key by key.
 */
export function layerTexts<T extends object>(tag: string, option: TextsOption | null | undefined, builtIn: Record<Lang, T>): Speech<T> {
  const exact = tag.toLowerCase();
  const primary = exact.split('-')[0]!;
  const flat = option && PARTS.some((part) => part in option);
  const byTag: Record<string, TextOverrides> = flat || !option ? {} : Object.fromEntries(Object.entries(option).map(([k, v]) => [k.toLowerCase(), v]));
  const own = [primary, exact].flatMap((key) => (key && Object.hasOwn(byTag, key) ? [byTag[key]!] : []));
  const known = own.length > 0 || primary === 'ru' || primary === 'en';
  const layers = [flat ? (option as TextOverrides) : {}, ...own] as Record<string, object | undefined>[];
  const t = Object.fromEntries(
    Object.entries(builtIn[toLang(primary)]).map(([part, texts]) => [part, Object.assign({}, texts, ...layers.map((layer) => layer[part]))]),
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
 * The text of a problem in the given texts. Accepts a problem key, or the English text the relay answers with (which
 * is mapped back to its key); anything else is shown as it came.
 */
export function problemOf(t: Texts, keyOrText: string): string {
  const problems = t.problems as Record<string, string>;
  const key = Object.hasOwn(problems, keyOrText)
    ? keyOrText
    : Object.keys(PROBLEM_TEXTS_EN).find((k) => (PROBLEM_TEXTS_EN as Record<string, string>)[k] === keyOrText);
  return key ? problems[key]! : keyOrText;
}

/** `problemOf` with the built-in texts of `lang`. */
export function problemIn(lang: Lang, keyOrText: string): string {
  return problemOf(TEXTS[lang], keyOrText);
}
