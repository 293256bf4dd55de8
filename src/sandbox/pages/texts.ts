/**
 * Everything a client reads on the sandbox's pages, in each language the pages speak: the hosted payment page and its
 * outcome, the client cards, the message pages. The sandbox's own controls (the clock panel and what a move of the
 * clock did) and the billing's records (charge descriptions, tariff and service names) stay in English. Which
 * language a request gets: `language.ts`.
 */
import { formatMinorUnits } from '../../eps/amount.js';
import { formatAmount } from '../../eps/locale-amount.js';
import { TRIGGER_TEXT } from '../billing/autopayments.js';
import type { AutopaymentTrigger, PaymentStatus, SubscriptionState } from '../billing/records.js';

export type Lang = 'en' | 'ru';

/** Why a page refuses: the texts of the refusals the pages answer themselves. */
export type RefusalKey = 'noPayment' | 'noDecision' | 'noCard' | 'noAgreement' | 'noPage';

export interface PageTexts {
  lang: Lang;
  /** An amount in minor units, written the way this language writes money. */
  money(minor: bigint): string;
  /** "1 day", "3 days". */
  days(n: number): string;
  layout: { sandbox: string; testOnly: string };
  agreement: {
    unknown: string;
    /** In a sentence: "offer agreement 1003". */
    offer(id: number): string;
    /** In a heading: "Agreement AG-1001". */
    numbered(number: string): string;
    /** In a heading: "Offer agreement 1003". */
    offerTitle(id: number): string;
  };
  refusal: { notFound: string; refused: string } & Record<RefusalKey, string>;
  pay: {
    title(system: string, amount: string): string;
    heading(system: string, id: number): string;
    amount: string;
    agreement: string;
    method: string;
    notSaved: string;
    savedWithAutopay: string;
    savedWithoutAutopay: string;
    /** Added to the saving text when the payment only links a card. */
    linkOnly: string;
    testCard: string;
    pay(amount: string): string;
    decline: string;
    note(system: string): string;
  };
  outcome: {
    succeeded: string;
    declined: string;
    summary(id: number, amount: string, system: string, status: string): string;
    back: string;
    noReturn: string;
  };
  paymentStatus: Record<PaymentStatus, string>;
  card: {
    homeTitle: string;
    homeHeading: string;
    clientId(id: number): string;
    contact: string;
    taxpayer: string;
    withId(label: string, id: number): string;
    /** In a heading: "… · balance 100.00". */
    balance: string;
    balanceLabel: string;
    recommended: string;
    openCard(label: string): string;
    noDescription: string;
    tariff(id: number): string;
    period(id: number): string;
    versionFrom(version: number, from: string): string;
    title(agreement: string): string;
    heading(agreement: string): string;
    allClients: string;
    clientAndAgreement: string;
    client: string;
    unknown: string;
    agreementWord: string;
    idNoNumber(id: number): string;
    offerAgreement: string;
    concluded(date: string): string;
    autopayment: string;
    connected: string;
    notConnected: string;
    autopayMethod(method: number, title: string, system: string): string;
    autopayChecks(lead: string): string;
    subscriptions: string;
    noSubscriptions: string;
    subscription(id: number): string;
    state: string;
    since(at: string): string;
    currentPeriod: string;
    nextPeriod: string;
    starts: string;
    costs: string;
    toUnblock: string;
    toActivate: string;
    restOfPeriod: string;
    versionsOf(id: number): string;
    inForce: string;
    /** A service's price: "Internet × 1 at 1140.00". */
    at: string;
    newPrice: string;
    created: string;
    changed: string;
    backDated: string;
    backDatedWhy: string;
    state_: Record<SubscriptionState, string>;
  };
  table: {
    id: string;
    method: string;
    system: string;
    status: string;
    autopayment: string;
    saved: string;
    disabled: string;
    action: string;
    amount: string;
    foundBy: string;
    created: string;
    date: string;
    subscription: string;
    what: string;
    version: string;
    inForceFrom: string;
    balanceAfter: string;
    payment: string;
    trigger: string;
    tariff: string;
    period: string;
    services: string;
    perMonth: string;
    recorded: string;
    charges: string;
    chargesCaption: string;
    noCharges: string;
    payments: string;
    paymentsAndAutopayments: string;
    historyCaption: string;
    noPayments: string;
    methods: string;
    methodsCaption: string;
    noMethods: string;
    noMethodsHint: string;
    paymentLine(id: number, system: string): string;
    autopaymentLine(id: number): string;
    savedAs(method: number): string;
    methodOf(method: number, title: string, system: string): string;
    methodNo(method: number): string;
    testCancelled: string;
    credited: string;
    autopaymentDisabled: string;
    methodDisabled: string;
    active: string;
    inactive: string;
    code(status: number): string;
    codeWhy: string;
    on: string;
    off: string;
    disableAutopayment: string;
    trigger_: Record<AutopaymentTrigger, string>;
  };
}

const en: PageTexts = {
  lang: 'en',
  money: formatMinorUnits,
  days: (n) => (n === 1 ? '1 day' : `${n} days`),
  layout: { sandbox: 'Billing sandbox', testOnly: '· test data only, no real money moves' },
  agreement: {
    unknown: 'unknown agreement',
    offer: (id) => `offer agreement ${id}`,
    numbered: (number) => `Agreement ${number}`,
    offerTitle: (id) => `Offer agreement ${id}`,
  },
  refusal: {
    notFound: 'Not found',
    refused: 'Request refused',
    noPayment: 'There is no payment with this number.',
    noDecision: 'Choose Pay or Decline.',
    noCard: 'Choose one of the test cards.',
    noAgreement: 'There is no agreement with this id.',
    noPage: 'There is no page at this address.',
  },
  pay: {
    title: (system, amount) => `System ${system}: pay ${amount}`,
    heading: (system, id) => `System ${system} · payment no. ${id}`,
    amount: 'Amount',
    agreement: 'Agreement',
    method: 'Payment method',
    notSaved: 'Not saved',
    savedWithAutopay: 'Saved, with autopayment connected',
    savedWithoutAutopay: 'Saved, without autopayment',
    linkOnly: '; this test payment is then cancelled and the balance does not change',
    testCard: 'Sandbox test card',
    pay: (amount) => `Pay ${amount}`,
    decline: 'Decline',
    note: (system) => `This page plays payment system ${system}. Choose an outcome to continue as the client would.`,
  },
  outcome: {
    succeeded: 'Payment succeeded',
    declined: 'Payment declined',
    summary: (id, amount, system, status) => `Payment no. ${id} of ${amount} through system ${system}: ${status}.`,
    back: 'Return to the shop',
    noReturn: 'The payment request gave no return address; you may close this page.',
  },
  paymentStatus: { pending: 'pending', succeeded: 'succeeded', declined: 'declined' },
  card: {
    homeTitle: 'Billing sandbox: clients',
    homeHeading: 'Clients and their agreements',
    clientId: (id) => `client id ${id}`,
    contact: 'Contact',
    taxpayer: 'Taxpayer number',
    withId: (label, id) => `${label} (id ${id})`,
    balance: 'balance',
    balanceLabel: 'Balance',
    recommended: 'Recommended payment',
    openCard: (label) => `Open the client card of ${label}`,
    noDescription: 'no description',
    tariff: (id) => `tariff ${id}`,
    period: (id) => `period ${id}`,
    versionFrom: (version, from) => `version ${version} from ${from}`,
    title: (agreement) => `Client card: ${agreement}`,
    heading: (agreement) => `Client card · ${agreement}`,
    allClients: 'All clients',
    clientAndAgreement: 'Client and agreement',
    client: 'Client',
    unknown: 'unknown',
    agreementWord: 'Agreement',
    idNoNumber: (id) => `id ${id}, no number`,
    offerAgreement: 'an offer agreement, ',
    concluded: (date) => `concluded ${date}`,
    autopayment: 'Autopayment',
    connected: 'connected',
    notConnected: 'not connected',
    autopayMethod: (method, title, system) => `method ${method}, ${title} (system ${system})`,
    autopayChecks: (lead) =>
      `checked ${lead} before each period, on financial blocking, and hourly at minute 30 while something is owed`,
    subscriptions: 'Subscriptions',
    noSubscriptions: 'No subscriptions.',
    subscription: (id) => `Subscription ${id}`,
    state: 'State',
    since: (at) => `since ${at}`,
    currentPeriod: 'Current period',
    nextPeriod: 'Next period',
    starts: 'Starts',
    costs: 'costs',
    toUnblock: 'To unblock now',
    toActivate: 'To activate now',
    restOfPeriod: '(the rest of the current period)',
    versionsOf: (id) => `Versions of subscription ${id}`,
    inForce: '(in force)',
    at: 'at',
    newPrice: ' (new price)',
    created: 'created',
    changed: 'changed',
    backDated: '(back-dated)',
    backDatedWhy: 'entered after the date it is in force from; the billing caught up at once',
    state_: {
      scheduled: 'scheduled',
      awaiting_activation: 'awaiting activation',
      active: 'active',
      blocked: 'financial blocking',
    },
  },
  table: {
    id: 'Id',
    method: 'Method',
    system: 'System',
    status: 'Status',
    autopayment: 'Autopayment',
    saved: 'Saved',
    disabled: 'Disabled',
    action: 'Action',
    amount: 'Amount',
    foundBy: 'Found by',
    created: 'Created',
    date: 'Date',
    subscription: 'Subscription',
    what: 'What',
    version: 'Version',
    inForceFrom: 'In force from',
    balanceAfter: 'Balance after',
    payment: 'Payment',
    trigger: 'Trigger',
    tariff: 'Tariff',
    period: 'Period',
    services: 'Services',
    perMonth: 'Per month',
    recorded: 'Recorded',
    charges: 'Charges',
    chargesCaption: 'Charges and recalculations, oldest first',
    noCharges: 'No charges.',
    payments: 'Payments',
    paymentsAndAutopayments: 'Payments and autopayments',
    historyCaption: 'Payment history, oldest first',
    noPayments: 'No payments.',
    methods: 'Saved payment methods',
    methodsCaption: 'Saved payment methods and their autopayment',
    noMethods: 'No saved payment methods.',
    noMethodsHint:
      'No saved payment methods. A payment with system A or B that saves the method adds it here, with autopayment when the request connects it.',
    paymentLine: (id, system) => `Payment no. ${id} through system ${system}`,
    autopaymentLine: (id) => `Autopayment no. ${id}`,
    savedAs: (method) => `saved as method ${method}`,
    methodOf: (method, title, system) => `method ${method}, ${title} (system ${system})`,
    methodNo: (method) => `method ${method}`,
    testCancelled: '(test payment cancelled)',
    credited: 'credited',
    autopaymentDisabled: 'Autopayment disabled',
    methodDisabled: 'method disabled',
    active: 'active',
    inactive: 'disabled',
    code: (status) => `code ${status}`,
    codeWhy: "the method's status code in the API, as status_list filters it",
    on: 'connected',
    off: 'off',
    disableAutopayment: 'Disable autopayment',
    trigger_: TRIGGER_TEXT,
  },
};

/** Which of "день / дня / дней" a count takes. */
const russianPlural = new Intl.PluralRules('ru');
const russianForm = (n: number, one: string, few: string, many: string) => {
  const rule = russianPlural.select(n);
  return rule === 'one' ? one : rule === 'few' ? few : many;
};

const ru: PageTexts = {
  lang: 'ru',
  // As the widget writes amounts in Russian: "1 500,50", with a no-break space between groups.
  money: (minor) => (minor < 0n ? '-' : '') + formatAmount(formatMinorUnits(minor < 0n ? -minor : minor), 'ru'),
  days: (n) => `${n} ${russianForm(n, 'день', 'дня', 'дней')}`,
  layout: { sandbox: 'Песочница биллинга', testOnly: '· только тестовые данные, настоящие деньги не движутся' },
  agreement: {
    unknown: 'неизвестный договор',
    offer: (id) => `договор-оферта ${id}`,
    numbered: (number) => `Договор ${number}`,
    offerTitle: (id) => `Договор-оферта ${id}`,
  },
  refusal: {
    notFound: 'Страница не найдена',
    refused: 'Запрос отклонён',
    noPayment: 'Платежа с таким номером нет.',
    noDecision: 'Выберите «Оплатить» или «Отклонить».',
    noCard: 'Выберите одну из тестовых карт.',
    noAgreement: 'Договора с таким id нет.',
    noPage: 'По этому адресу страницы нет.',
  },
  pay: {
    title: (system, amount) => `Система ${system}: оплата ${amount}`,
    heading: (system, id) => `Система ${system} · платёж № ${id}`,
    amount: 'Сумма',
    agreement: 'Договор',
    method: 'Способ оплаты',
    notSaved: 'Не сохраняется',
    savedWithAutopay: 'Сохраняется, автоплатёж подключается',
    savedWithoutAutopay: 'Сохраняется, без автоплатежа',
    linkOnly: '; этот тестовый платёж затем отменяется, баланс не меняется',
    testCard: 'Тестовая карта песочницы',
    pay: (amount) => `Оплатить ${amount}`,
    decline: 'Отклонить',
    note: (system) =>
      `Эта страница играет роль платёжной системы ${system}. Выберите исход, чтобы продолжить, как сделал бы клиент.`,
  },
  outcome: {
    succeeded: 'Платёж прошёл',
    declined: 'Платёж отклонён',
    summary: (id, amount, system, status) => `Платёж № ${id} на сумму ${amount} через систему ${system}: ${status}.`,
    back: 'Вернуться в магазин',
    noReturn: 'В запросе платежа не было адреса возврата; эту страницу можно закрыть.',
  },
  paymentStatus: { pending: 'ожидает', succeeded: 'прошёл', declined: 'отклонён' },
  card: {
    homeTitle: 'Песочница биллинга: клиенты',
    homeHeading: 'Клиенты и их договоры',
    clientId: (id) => `id клиента ${id}`,
    contact: 'Контакт',
    taxpayer: 'ИНН',
    withId: (label, id) => `${label} (id ${id})`,
    balance: 'баланс',
    balanceLabel: 'Баланс',
    recommended: 'Рекомендуемый платёж',
    openCard: (label) => `Открыть карточку клиента: ${label}`,
    noDescription: 'без описания',
    tariff: (id) => `тариф ${id}`,
    period: (id) => `период ${id}`,
    versionFrom: (version, from) => `версия ${version} с ${from}`,
    title: (agreement) => `Карточка клиента: ${agreement}`,
    heading: (agreement) => `Карточка клиента · ${agreement}`,
    allClients: 'Все клиенты',
    clientAndAgreement: 'Клиент и договор',
    client: 'Клиент',
    unknown: 'неизвестен',
    agreementWord: 'Договор',
    idNoNumber: (id) => `id ${id}, без номера`,
    offerAgreement: 'договор-оферта, ',
    concluded: (date) => `заключён ${date}`,
    autopayment: 'Автоплатёж',
    connected: 'подключён',
    notConnected: 'не подключён',
    autopayMethod: (method, title, system) => `способ ${method}, ${title} (система ${system})`,
    autopayChecks: (lead) =>
      `проверяется за ${lead} до каждого периода, при финансовой блокировке и каждый час в 30 минут, пока есть долг`,
    subscriptions: 'Подписки',
    noSubscriptions: 'Подписок нет.',
    subscription: (id) => `Подписка ${id}`,
    state: 'Состояние',
    since: (at) => `с ${at}`,
    currentPeriod: 'Текущий период',
    nextPeriod: 'Следующий период',
    starts: 'Начало',
    costs: 'стоит',
    toUnblock: 'Чтобы снять блокировку сейчас',
    toActivate: 'Чтобы активировать сейчас',
    restOfPeriod: '(остаток текущего периода)',
    versionsOf: (id) => `Версии подписки ${id}`,
    inForce: '(действует)',
    at: 'по',
    newPrice: ' (новая цена)',
    created: 'создана',
    changed: 'изменена',
    backDated: '(задним числом)',
    backDatedWhy: 'внесена после даты, с которой действует; биллинг сразу всё пересчитал',
    state_: {
      scheduled: 'запланирована',
      awaiting_activation: 'ждёт активации',
      active: 'активна',
      blocked: 'финансовая блокировка',
    },
  },
  table: {
    id: 'Id',
    method: 'Способ',
    system: 'Система',
    status: 'Статус',
    autopayment: 'Автоплатёж',
    saved: 'Сохранён',
    disabled: 'Отключён',
    action: 'Действие',
    amount: 'Сумма',
    foundBy: 'Найден по',
    created: 'Создан',
    date: 'Дата',
    subscription: 'Подписка',
    what: 'Что',
    version: 'Версия',
    inForceFrom: 'Действует с',
    balanceAfter: 'Баланс после',
    payment: 'Платёж',
    trigger: 'Повод',
    tariff: 'Тариф',
    period: 'Период',
    services: 'Услуги',
    perMonth: 'В месяц',
    recorded: 'Внесена',
    charges: 'Списания',
    chargesCaption: 'Списания и перерасчёты, сначала старые',
    noCharges: 'Списаний нет.',
    payments: 'Платежи',
    paymentsAndAutopayments: 'Платежи и автоплатежи',
    historyCaption: 'История платежей, сначала старые',
    noPayments: 'Платежей нет.',
    methods: 'Сохранённые способы оплаты',
    methodsCaption: 'Сохранённые способы оплаты и их автоплатёж',
    noMethods: 'Сохранённых способов оплаты нет.',
    noMethodsHint:
      'Сохранённых способов оплаты нет. Платёж через систему A или B с сохранением способа добавит его сюда, с автоплатежом, если запрос его подключает.',
    paymentLine: (id, system) => `Платёж № ${id} через систему ${system}`,
    autopaymentLine: (id) => `Автоплатёж № ${id}`,
    savedAs: (method) => `сохранён как способ ${method}`,
    methodOf: (method, title, system) => `способ ${method}, ${title} (система ${system})`,
    methodNo: (method) => `способ ${method}`,
    testCancelled: '(тестовый платёж отменён)',
    credited: 'зачислен',
    autopaymentDisabled: 'Автоплатёж отключён',
    methodDisabled: 'способ отключён',
    active: 'активен',
    inactive: 'отключён',
    code: (status) => `код ${status}`,
    codeWhy: 'код статуса способа в API, по которому фильтрует status_list',
    on: 'подключён',
    off: 'выключен',
    disableAutopayment: 'Отключить автоплатёж',
    trigger_: {
      before_period: 'перед новым периодом',
      blocking: 'финансовая блокировка',
      hourly: 'ежечасная проверка',
    },
  },
};

export const TEXTS: Readonly<Record<Lang, PageTexts>> = { en, ru };
