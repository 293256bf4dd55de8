import { css } from 'lit';

export default css`
  :host {
    /* initial: unset, so the page's font is inherited */
    --billing-pay-font-family: initial;
    --billing-pay-font-size: 1em;
    --billing-pay-color-text: #1b1f27;
    --billing-pay-color-muted: #535b69;
    --billing-pay-color-background: #ffffff;
    --billing-pay-color-field: #ffffff;
    --billing-pay-color-border: #767f8e;
    --billing-pay-color-accent: #1d5bc7;
    --billing-pay-color-accent-text: #ffffff;
    --billing-pay-color-error: #b3261e;
    --billing-pay-color-focus: #1d5bc7;
    --billing-pay-radius: 0.5rem;
    --billing-pay-spacing: 1rem;
    --billing-pay-max-width: 28rem;

    display: block;
    box-sizing: border-box;
    max-inline-size: var(--billing-pay-max-width);
    font-family: var(--billing-pay-font-family);
    font-size: var(--billing-pay-font-size);
    line-height: 1.4;
    overflow-wrap: anywhere;
    color: var(--billing-pay-color-text);
    color-scheme: light;
  }

  /* Dark: by the page's colour scheme unless theme="light", or always with theme="dark". */
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      --billing-pay-color-text: #e7e9ee;
      --billing-pay-color-muted: #aab1bd;
      --billing-pay-color-background: #181b21;
      --billing-pay-color-field: #20242c;
      --billing-pay-color-border: #8a93a3;
      --billing-pay-color-accent: #8db4ff;
      --billing-pay-color-accent-text: #0b1020;
      --billing-pay-color-error: #ffb4ab;
      --billing-pay-color-focus: #8db4ff;
      color-scheme: dark;
    }
  }

  :host([theme='dark']) {
    --billing-pay-color-text: #e7e9ee;
    --billing-pay-color-muted: #aab1bd;
    --billing-pay-color-background: #181b21;
    --billing-pay-color-field: #20242c;
    --billing-pay-color-border: #8a93a3;
    --billing-pay-color-accent: #8db4ff;
    --billing-pay-color-accent-text: #0b1020;
    --billing-pay-color-error: #ffb4ab;
    --billing-pay-color-focus: #8db4ff;
    color-scheme: dark;
  }

  :host([hidden]) {
    display: none;
  }

  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }

  form {
    position: relative;
    display: grid;
    gap: var(--billing-pay-spacing);
    padding: var(--billing-pay-spacing);
    border-radius: var(--billing-pay-radius);
    background: var(--billing-pay-color-background);
  }

  fieldset {
    margin: 0;
    padding: 0;
    border: 0;
    min-inline-size: 0;
  }

  legend,
  label,
  .label {
    padding: 0;
    font-weight: 600;
  }

  .field {
    display: grid;
    gap: 0.35em;
  }

  .options {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5em 1.25em;
    margin-block-start: 0.35em;
  }

  .check {
    display: flex;
    align-items: flex-start;
    gap: 0.5em;
  }

  .check label {
    font-weight: 400;
  }

  .optional,
  .hint,
  .note {
    color: var(--billing-pay-color-muted);
    font-weight: 400;
    font-size: 0.875em;
    margin: 0;
  }

  input:not([type='radio'], [type='checkbox']),
  select {
    inline-size: 100%;
    min-block-size: 2.75em;
    padding: 0.5em 0.75em;
    font: inherit;
    color: inherit;
    background: var(--billing-pay-color-field);
    border: 1px solid var(--billing-pay-color-border);
    border-radius: calc(var(--billing-pay-radius) * 0.75);
  }

  /* WebKit lays a <select>'s chosen option out at its full width even in a narrower box, and the text overflows the
     box, the field and the form (38 px at 200 % text in 320 px): the box clips it. */
  select {
    contain: paint;
  }

  input[readonly] {
    background: transparent;
    border-style: dashed;
  }

  input[type='radio'],
  input[type='checkbox'] {
    inline-size: 1.15em;
    block-size: 1.15em;
    margin: 0.15em 0 0;
    accent-color: var(--billing-pay-color-accent);
  }

  [aria-invalid='true'] {
    border-color: var(--billing-pay-color-error);
    box-shadow: inset 0 0 0 1px var(--billing-pay-color-error);
  }

  :focus-visible {
    outline: 3px solid var(--billing-pay-color-focus);
    outline-offset: 2px;
  }

  .error,
  .status.error {
    margin: 0;
    color: var(--billing-pay-color-error);
    font-size: 0.875em;
  }

  /* An empty live region stays in the accessibility tree (so what it says next is announced), out of the layout. */
  .status:empty {
    position: absolute;
  }

  .status {
    margin: 0;
  }

  .preset {
    margin: 0;
  }

  button {
    min-block-size: 2.75em;
    padding: 0.6em 1.5em;
    font: inherit;
    font-weight: 600;
    color: var(--billing-pay-color-accent-text);
    background: var(--billing-pay-color-accent);
    border: 0;
    border-radius: var(--billing-pay-radius);
    cursor: pointer;
  }

  button:disabled {
    cursor: progress;
    opacity: 0.7;
  }
`;
