import { css } from 'lit';

/** The dark scheme's values, written once for the two rules that turn it on. */
const dark = css`
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
`;

/**
 * The styles both elements share: the host with every `--billing-pay-*` custom property and its default, the dark
 * scheme, the panel, buttons, the focus ring and the status line. Each element adds its own (`*.styles.ts`).
 */
export default css`
  :host {
    --billing-pay-font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
    --billing-pay-font-size: medium;
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

    /* The page's inherited styles stop here: every property starts from its initial value, then takes the element's
       own. Passed on: custom properties, the direction (a right-to-left page mirrors the layout), an ancestor that
       hides or disables what it holds, and the text size the page allows a phone to adjust. */
    all: initial;
    visibility: inherit;
    pointer-events: inherit;
    -webkit-text-size-adjust: inherit;
    text-size-adjust: inherit;
    display: block;
    box-sizing: border-box;
    max-inline-size: var(--billing-pay-max-width);
    font: 400 var(--billing-pay-font-size) / 1.4 var(--billing-pay-font-family);
    overflow-wrap: anywhere;
    color: var(--billing-pay-color-text);
    color-scheme: light;
  }

  /* Dark: by the page's colour scheme unless theme="light", or always with theme="dark". */
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      ${dark}
    }
  }

  :host([theme='dark']) {
    ${dark}
  }

  :host([hidden]) {
    display: none;
  }

  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }

  .panel {
    position: relative;
    display: grid;
    gap: var(--billing-pay-spacing);
    padding: var(--billing-pay-spacing);
    border-radius: var(--billing-pay-radius);
    background: var(--billing-pay-color-background);
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

  /* Said to assistive technology, not shown: the skeleton says "loading" to the eye. */
  .hidden {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
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
  }

  button.secondary {
    color: var(--billing-pay-color-accent);
    background: transparent;
    box-shadow: inset 0 0 0 1px var(--billing-pay-color-border);
  }
`;
