import { css } from 'lit';

/**
 * What `<billing-pay>` adds to `billing-element.styles.ts`: the system tiles, fields, the skeleton while `/config`
 * loads, the busy Pay button, the duplicate question and the result screen. Logical properties only: a right-to-left
 * page mirrors it.
 */
export default css`
  .stack {
    display: grid;
    gap: var(--billing-pay-spacing);
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

  legend {
    margin-block-end: 0.35em;
  }

  .field {
    display: grid;
    gap: 0.35em;
  }

  /* The places of the three systems in one row, each tile as tall as two lines of its name, whichever the relay
     offers: the skeleton drawn before /config is the form's layout, and no tile moves when it comes. */
  .tiles {
    display: grid;
    grid-template-columns: repeat(3, minmax(0, 1fr));
    gap: 0.5em;
    container-type: inline-size;
  }

  /* A narrow row (a phone): the name takes the tile's width and three lines, the radio is there for keys and readers
     alone, and the tile shows the choice (its border) and the focus. */
  @container (max-width: 27em) {
    .tiles .tile {
      min-block-size: calc(3.75em + 1em + 2px);
      padding-inline: 0.375em;
      font-size: 0.875em;
    }

    .tiles .name {
      -webkit-line-clamp: 3;
    }

    .tile input[type='radio'] {
      position: absolute;
      opacity: 0;
    }

    .tile:has(:focus-visible) {
      outline: 3px solid var(--billing-pay-color-focus);
      outline-offset: 2px;
    }
  }

  .tile {
    position: relative;
    display: flex;
    align-items: center;
    gap: 0.5em;
    min-block-size: calc(2.5em + 1em + 2px);
    padding: 0.5em 0.75em;
    font-weight: 500;
    line-height: 1.25;
    background: var(--billing-pay-color-field);
    border: 1px solid var(--billing-pay-color-border);
    border-radius: var(--billing-pay-radius);
    cursor: pointer;
  }

  .tile:has(:checked) {
    border-color: var(--billing-pay-color-accent);
    box-shadow: inset 0 0 0 1px var(--billing-pay-color-accent);
  }

  /* A name breaks between its words, else by the language's hyphenation ("Банков-ская", never "Банковск ая"). */
  .name {
    overflow-wrap: break-word;
    hyphens: auto;
    min-inline-size: 0;
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 2;
    overflow: hidden;
  }

  .reserved {
    visibility: hidden;
  }

  ::slotted(img),
  ::slotted(svg) {
    display: block;
    max-block-size: 1.5em;
    max-inline-size: 4em;
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

  input.amount {
    font-size: 1.25em;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
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
    flex: none;
    inline-size: 1.15em;
    block-size: 1.15em;
    margin: 0.15em 0 0;
    accent-color: var(--billing-pay-color-accent);
  }

  .tile input[type='radio'] {
    margin: 0;
  }

  [aria-invalid='true'] {
    border-color: var(--billing-pay-color-error);
    box-shadow: inset 0 0 0 1px var(--billing-pay-color-error);
  }

  .preset {
    margin: 0;
  }

  /* "Add a comment": a quiet button that reads as a link. */
  .more {
    justify-self: start;
    min-block-size: 0;
    padding: 0.25em 0;
    font-weight: 400;
    color: inherit;
    background: none;
    text-decoration: underline;
  }

  .pay {
    display: flex;
    align-items: center;
    justify-content: center;
    gap: 0.5em;
    inline-size: 100%;
    font-variant-numeric: tabular-nums;
  }

  /* The skeleton: the form in its final place, its words and boxes greyed until /config comes. */
  .skeleton :is(legend, label, .name, .note, .more),
  .skeleton.pay {
    color: transparent;
    background: color-mix(in srgb, var(--billing-pay-color-muted) 22%, transparent);
    border-radius: calc(var(--billing-pay-radius) * 0.5);
  }

  .skeleton :is(input, select, .tile) {
    border-color: color-mix(in srgb, var(--billing-pay-color-muted) 30%, transparent);
  }

  .skeleton input[type='radio'],
  .skeleton input[type='checkbox'] {
    visibility: hidden;
  }

  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5em;
  }

  .actions button {
    flex: 1 1 auto;
  }

  .question-text {
    font-weight: 600;
  }

  .title {
    margin: 0;
    font-size: 1.25em;
  }

  .meaning {
    margin: 0.5em 0 0;
  }

  .result {
    display: grid;
    gap: 0.5em;
    margin: 0;
    padding: var(--billing-pay-spacing);
    border: 1px solid var(--billing-pay-color-border);
    border-radius: var(--billing-pay-radius);
  }

  .result div {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    gap: 0 1em;
  }

  .result dt {
    color: var(--billing-pay-color-muted);
  }

  .result dd {
    margin: 0;
    font-weight: 600;
  }

  /* The disclosure's links: the hint's colour (its contrast), told apart by their underline. */
  a {
    color: inherit;
  }
`;
