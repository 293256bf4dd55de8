import { css } from 'lit';

/** What `<billing-pay>` adds to `billing-element.styles.ts`: the form's fields, choices and hints. */
export default css`
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

  .preset {
    margin: 0;
  }

  /* The disclosure's links: the hint's colour (its contrast), told apart by their underline. */
  a {
    color: inherit;
  }
`;
