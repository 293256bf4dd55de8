/**
 * The texts of `<billing-payment-methods>` in English and Russian. The language and a page's `texts` are resolved as
 * for `<billing-pay>` (`layerTexts` in i18n.ts, the part `methods`); `{title}` is the method's name as shown in the list.
 * (No import: i18n.ts reads `PaymentMethodsTexts` from here for the `methods` part of a page's `texts`.)
 */

const EN = {
  list: 'Saved payment methods',
  loading: 'Loading saved payment methods…',
  empty: 'No saved payment methods.',
  method: 'Payment method {id}',
  bank_card: 'Bank card',
  autopay_on: 'Autopayment on',
  autopay_off: 'Autopayment off',
  disable: 'Disable autopayment',
  disable_for: 'Disable autopayment for {title}',
  question:
    'Disable autopayment with {title}? The method is no longer saved; to pay automatically again, save it with your next payment.',
  confirm: 'Disable',
  keep: 'Keep',
  keep_for: 'Keep autopayment for {title}',
  disabling: 'Disabling autopayment…',
  disabled: 'Autopayment with {title} is disabled.',
  retry: 'Try again',
  error_session: 'Your session has expired; reload the page.',
  error_load: 'Saved payment methods could not be loaded.',
  error_disable: 'The autopayment could not be disabled. Try again later.',
  error_gone: 'This payment method is no longer saved.',
  error_network: 'The payment service could not be reached. Check the connection and try again.',
  error_timeout: 'The payment service did not answer in time. Try again.',
};

export type PaymentMethodsTexts = typeof EN;

export const PAYMENT_METHODS_TEXTS: { en: PaymentMethodsTexts; ru: PaymentMethodsTexts } = {
  en: EN,
  ru: {
    list: 'Сохранённые способы оплаты',
    loading: 'Загружаем сохранённые способы оплаты…',
    empty: 'Нет сохранённых способов оплаты.',
    method: 'Способ оплаты {id}',
    bank_card: 'Банковская карта',
    autopay_on: 'Автоплатёж включён',
    autopay_off: 'Автоплатёж выключен',
    disable: 'Отключить автоплатёж',
    disable_for: 'Отключить автоплатёж для {title}',
    question:
      'Отключить автоплатёж для {title}? Способ оплаты больше не будет сохранён; чтобы снова платить автоматически, сохраните его при следующей оплате.',
    confirm: 'Отключить',
    keep: 'Оставить',
    keep_for: 'Оставить автоплатёж для {title}',
    disabling: 'Отключаем автоплатёж…',
    disabled: 'Автоплатёж для {title} отключён.',
    retry: 'Попробовать снова',
    error_session: 'Сеанс истёк; обновите страницу.',
    error_load: 'Не удалось загрузить сохранённые способы оплаты.',
    error_disable: 'Не удалось отключить автоплатёж. Попробуйте позже.',
    error_gone: 'Этот способ оплаты уже не сохранён.',
    error_network: 'Не удалось связаться с платёжным сервисом. Проверьте соединение и попробуйте ещё раз.',
    error_timeout: 'Платёжный сервис не ответил вовремя. Попробуйте ещё раз.',
  },
};
