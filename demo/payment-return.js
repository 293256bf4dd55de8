// The client's return from the payment page: the payment system sends them back to this page with
// `?payment_id=N&status=succeeded|declined|…` in the address. Says what happened, above the widget, in the page's
// language (as text, never as HTML), and takes the query out of the address bar so that a reload or a bookmark does
// not say it again.

const TEXTS = {
  en: {
    succeeded: 'Payment {id} succeeded. Thank you!',
    declined: 'Payment {id} was declined. No money was taken; you can try again below.',
    other: 'Payment {id} has not been completed.',
  },
  ru: {
    succeeded: 'Платёж {id} прошёл успешно. Спасибо!',
    declined: 'Платёж {id} отклонён. Деньги не списаны; можно попробовать ещё раз ниже.',
    other: 'Платёж {id} не завершён.',
  },
};

/** `{id, status}` from a return query (`?payment_id=12&status=succeeded`), or `null` when it is not one. */
export function readPaymentReturn(search) {
  const params = new URLSearchParams(search);
  const id = params.get('payment_id');
  const status = params.get('status');
  if (!id || !/^[1-9]\d{0,17}$/.test(id) || !status) return null;
  return { id, status: status === 'succeeded' || status === 'declined' ? status : 'other' };
}

/** What to tell the client about a return, in a language (`ru…` is Russian, anything else English). */
export function paymentReturnText({ id, status }, lang) {
  const texts = /^ru\b/i.test(lang ?? '') ? TEXTS.ru : TEXTS.en;
  return texts[status].replace('{id}', id);
}

/**
 * Shows the return (if the page was opened by one) in `region`, a `role="status"` element, and replaces the address
 * with the same one without `payment_id` and `status`. Answers a function that says it again in the page's current
 * language (call it when the language changes), or `null` when there was no return.
 */
export function showPaymentReturn(region, win = window) {
  const url = new URL(win.location.href);
  const payment = readPaymentReturn(url.search);
  if (!payment) return null;
  url.searchParams.delete('payment_id');
  url.searchParams.delete('status');
  win.history.replaceState(win.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  const show = () => {
    region.dataset.status = payment.status;
    region.textContent = paymentReturnText(payment, win.document.documentElement.lang);
  };
  show();
  return show;
}
