/** The English labels of `<billing-pay>`'s result screen, which come with the return's late module. */
export const RETURN_LABELS_EN = {
  result_sent_title: 'Payment sent to {system}',
  result_sent:
    'If you completed it on the payment page, the balance changes once {system} confirms it. This page cannot see the outcome: your receipt and balance will show it.',
  result_failed_title: 'Payment not completed',
  result_failed: 'Nothing was charged. You can try again with the same details.',
  result_id: 'Payment ID',
  result_time: 'Started',
  another: 'Make another payment',
};
