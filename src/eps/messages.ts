/**
 * English texts of the problem keys the model reports; the relay answers with them, the widget translates them.
 * A request the widget builds can have only the first set (`FORM_PROBLEM_TEXTS_EN`), so the widget's bundle holds
 * only those; the relay also answers the others, for a request made by hand.
 */
export const FORM_PROBLEM_TEXTS_EN = {
  system: 'Choose one of the offered payment systems.',
  amount_format: 'Enter an amount such as 1500 or 1500.50.',
  amount_decimals: 'An amount has at most two decimals.',
  amount_positive: 'The amount must be greater than zero.',
  amount_max: 'The amount is above the maximum allowed.',
  lookup_kind: 'This way of finding the agreement is not offered.',
  required: 'This field is required.',
  too_long: 'This value is too long.',
  email: 'Enter an e-mail address such as name@example.com.',
  digits: 'Enter digits only.',
  full_name: 'Enter a full name in letters.',
  code: 'Enter the value without spaces or special characters.',
  inn: 'This taxpayer number is not valid (check its digits).',
  url: 'Enter a full http(s) address.',
  phone: 'Enter a phone number such as +7 900 123-45-67.',
  text: 'This text contains characters that are not allowed.',
  origin: 'This address is not on one of the merchant’s allowed origins.',
  agreement_not_found: 'No agreement was found by this value.',
} as const;

/** The problems only a request made by hand can have (the widget builds the envelope and its flags itself). */
const REQUEST_PROBLEM_TEXTS_EN = {
  body: 'The request body must be a JSON object.',
  eps_params: 'eps_params must be a list of {name, value} items.',
  param_name: 'Each parameter needs a name.',
  too_many_params: 'Too many parameters.',
  unknown_param: 'This parameter is not accepted by the chosen payment system.',
  duplicate_param: 'This parameter is given twice.',
  boolean: 'This parameter must be true or false.',
  token: 'This value is not a valid code.',
  autopay_rule:
    'Saving a payment method connects autopayments: save_payment_method, enable_autopayments and preferred_method go together.',
  link_rule: 'Linking a card for autopayments needs save_payment_method.',
  confirm_duplicate: 'confirm_duplicate, when given, must be true.',
} as const;

// A call marked pure, not a literal of spreads (which a bundler keeps): the widget's bundle keeps none of it.
export const PROBLEM_TEXTS_EN = /* @__PURE__ */ Object.assign({}, FORM_PROBLEM_TEXTS_EN, REQUEST_PROBLEM_TEXTS_EN);

export type ProblemKey = keyof typeof PROBLEM_TEXTS_EN;
/** The problems a form the widget sends can have. */
export type FormProblemKey = keyof typeof FORM_PROBLEM_TEXTS_EN;

export function problemText(key: ProblemKey): string {
  return PROBLEM_TEXTS_EN[key];
}
