import { css } from 'lit';

/**
 * What `<billing-payment-methods>` adds to `billing-element.styles.ts` (which declares every `--billing-pay-*`
 * custom property, the host, the panel, buttons, the focus ring and the status): the list and its confirmations.
 */
export default css`
  ul {
    display: grid;
    gap: var(--billing-pay-spacing);
    margin: 0;
    padding: 0;
    list-style: none;
  }

  li {
    display: grid;
    gap: 0.35em;
    justify-items: start;
    padding-block-end: var(--billing-pay-spacing);
    border-block-end: 1px solid var(--billing-pay-color-border);
  }

  li:last-child {
    padding: 0;
    border: 0;
  }

  .title {
    font-weight: 600;
  }

  .kind,
  .autopay {
    color: var(--billing-pay-color-muted);
    font-size: 0.875em;
  }

  .autopay.on {
    color: inherit;
  }

  .confirm {
    display: grid;
    gap: 0.5em;
    justify-items: start;
  }

  .confirm p {
    margin: 0;
  }

  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5em;
  }

  .secondary {
    color: var(--billing-pay-color-accent);
    background: transparent;
    box-shadow: inset 0 0 0 1px currentColor;
  }

  [aria-disabled='true'] {
    cursor: progress;
    opacity: 0.7;
  }
`;
