// The playground (playground.html): a form of <billing-pay>'s options, the widget live with them, and the embed snippet
// (playground-snippet.js). The form is made from the element's custom-elements manifest (playground-options.json, which
// `npm start` serves): every attribute it lists gets a control, with its description as the hint, so an attribute added
// to the element appears here without a change. Everything the merchant types goes into the page as text or as an
// attribute value, never as markup.
import { embedSnippet, relayUrl } from './playground-snippet.js';

/** Attributes the form does not offer, and why. */
const LEFT_OUT = new Set([
  'state', // read-only: the element sets it
  'relay', // "Your relay's address" gives it
  'session', // signed by the merchant's backend for each logged-in client, at run time
]);

/** The form's groups; an attribute of the manifest in none of them goes under "Other". */
const GROUPS = [
  ['Payment systems', ['systems', 'label-a', 'label-b', 'label-c', 'allow-link-only']],
  ['Finding the agreement', ['lookup', 'agreement']],
  ['Amount', ['amount', 'amount-fixed', 'currency']],
  ['Language and look', ['lang', 'theme', 'texts']],
  ['Receipt and return', ['email', 'phone', 'return-url']],
];

const main = document.querySelector('main');
/** This machine's relay, which the preview uses (the page is served with its address). */
const liveRelay = main.dataset.relay;
const form = document.getElementById('options');
const formStatus = document.getElementById('options-status');
const previewBox = document.getElementById('preview');
const previewStatus = document.getElementById('preview-status');
const relayInput = document.getElementById('relay-address');
const originInput = document.getElementById('page-origin');

/** A manifest default (`'5'`, `false`, `null`) as the control's value. */
function defaultOf(attribute) {
  const text = attribute.default ?? '';
  const quoted = /^'(.*)'$/.exec(text);
  return quoted ? quoted[1] : text === 'true';
}

/** Text with `code` spans (the manifest's Markdown) as text nodes and <code> elements. */
function richText(target, text) {
  target.replaceChildren(
    ...text.split('`').map((part, i) => {
      if (i % 2 === 0) return document.createTextNode(part);
      const code = document.createElement('code');
      code.textContent = part;
      return code;
    }),
  );
  return target;
}

let ids = 0;
function element(tag, properties = {}, ...children) {
  const el = Object.assign(document.createElement(tag), properties);
  el.append(...children);
  return el;
}

/** The hint and the error span of a control, wired to it through aria-describedby. */
function describe(control, description) {
  const hint = richText(element('span', { className: 'hint', id: `hint-${++ids}` }), description ?? '');
  const error = element('span', { className: 'error', id: `error-${ids}` });
  control.setAttribute('aria-describedby', `${hint.id} ${error.id}`);
  return { hint, error };
}

function nameLabel(name, id) {
  return element('label', { htmlFor: id }, element('code', { textContent: name }));
}

/**
 * A control for one attribute: its element, and `read()`, which answers `{value}` (a string, or `true` for a present
 * boolean attribute; none when the attribute is left at its default) or `{problem}`.
 */
function textControl(attribute, multiline = false) {
  const id = `attr-${attribute.name}`;
  const input = multiline ? element('textarea', { id, rows: 4, spellcheck: false }) : element('input', { id });
  if (!multiline) input.type = 'text';
  return control(attribute, input, () => (input.value.trim() ? { value: input.value } : {}));
}

function checkboxControl(attribute) {
  const id = `attr-${attribute.name}`;
  const input = element('input', { id, type: 'checkbox', checked: defaultOf(attribute) === true });
  return control(attribute, input, () => (input.checked ? { value: true } : {}));
}

function selectControl(attribute, choices, fallback) {
  const id = `attr-${attribute.name}`;
  const input = element('select', { id });
  for (const [value, text] of choices) input.append(element('option', { value, textContent: text }));
  input.value = fallback;
  return control(attribute, input, () => (input.value === fallback ? {} : { value: input.value }));
}

/** A labelled, described control of one attribute (a checkbox before its label), and how to `read` its value. */
function control(attribute, input, read) {
  const { hint, error } = describe(input, attribute.description);
  const label = nameLabel(attribute.name, input.id);
  const check = input.type === 'checkbox';
  return {
    name: attribute.name,
    node: element(
      'p',
      { className: check ? 'field check' : 'field' },
      ...(check ? [input, label] : [label, input]),
      hint,
      error,
    ),
    input,
    error,
    read,
  };
}

/** Checkboxes for a space-separated list; all of `fallback` checked and nothing else: left at its default. */
function listControl(attribute, items, fallback) {
  const boxes = items.map(([value, text]) => {
    const id = `attr-${attribute.name}-${value}`;
    const input = element('input', { id, type: 'checkbox', value, checked: fallback.includes(value) });
    return { input, node: element('span', { className: 'check' }, input, element('label', { htmlFor: id }, text)) };
  });
  const legend = element('legend', {}, element('code', { textContent: attribute.name }));
  const hint = richText(element('span', { className: 'hint', id: `hint-${++ids}` }), attribute.description ?? '');
  const error = element('span', { className: 'error', id: `error-${ids}` });
  const node = element('fieldset', { className: 'list' }, legend, ...boxes.map((b) => b.node), hint, error);
  node.setAttribute('aria-describedby', `${hint.id} ${error.id}`);
  return {
    name: attribute.name,
    node,
    input: node,
    error,
    read() {
      const chosen = boxes.filter((b) => b.input.checked).map((b) => b.input.value);
      if (!chosen.length) return { problem: 'Choose one at least.' };
      return chosen.join(' ') === fallback.join(' ') ? {} : { value: chosen.join(' ') };
    },
  };
}

/** `texts`: JSON of an object, written compact into the attribute. */
function textsControl(attribute) {
  const control = textControl(attribute, true);
  control.input.placeholder = '{"ru": {"labels": {"pay": "Оплатить счёт"}}, "en": {"labels": {"pay": "Pay the bill"}}}';
  control.read = () => {
    const text = control.input.value.trim();
    if (!text) return {};
    let value;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { problem: `Not JSON: ${error.message}` };
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'Write a JSON object.' };
    return { value: JSON.stringify(value) };
  };
  return control;
}

/** The `'light' | 'dark' | 'auto'` of a manifest type, or nothing when it is no union of literals. */
function literals(type) {
  const parts = (type?.text ?? '').split('|').map((p) => /^\s*'([^']*)'\s*$/.exec(p)?.[1]);
  return parts.length > 1 && parts.every((p) => p !== undefined) ? parts : null;
}

function controlFor(attribute, options, config) {
  switch (attribute.name) {
    case 'systems': {
      const offered = config.systems.map((s) => s.id);
      return listControl(
        attribute,
        offered.map((id) => [id, `System ${id}`]),
        offered,
      );
    }
    case 'lookup': {
      const names = new Map(options.kinds.map((k) => [String(k.kind), k.name]));
      const offered = config.lookups.map(String).filter((k) => names.has(k));
      return listControl(
        attribute,
        offered.map((k) => [k, `${k}: ${names.get(k)}`]),
        String(defaultOf(attribute)).split(/\s+/),
      );
    }
    case 'lang':
      return selectControl(attribute, [['', 'the page’s language'], ...options.languages.map((l) => [l, l])], '');
    case 'texts':
      return textsControl(attribute);
  }
  const choices = literals(attribute.type);
  if (choices)
    return selectControl(
      attribute,
      choices.map((c) => [c, c]),
      String(defaultOf(attribute)),
    );
  if (attribute.type?.text === 'boolean') return checkboxControl(attribute);
  return textControl(attribute);
}

/** The form's controls, in the manifest's order within each group. */
function buildForm(options, config) {
  const offered = options.attributes.filter((a) => !LEFT_OUT.has(a.name));
  const grouped = new Set(GROUPS.flatMap(([, names]) => names));
  const unknown = [...grouped].filter((name) => !offered.some((a) => a.name === name));
  if (unknown.length) throw new Error(`<${options.tag}> has no attribute ${unknown.join(', ')}`);
  const groups = [...GROUPS, ['Other', offered.map((a) => a.name).filter((name) => !grouped.has(name))]];
  const controls = [];
  for (const [title, names] of groups) {
    const inGroup = offered.filter((a) => names.includes(a.name)).map((a) => controlFor(a, options, config));
    if (!inGroup.length) continue;
    form.insertBefore(
      element('fieldset', {}, element('legend', { textContent: title }), ...inGroup.map((c) => c.node)),
      formStatus,
    );
    controls.push(...inGroup);
  }
  return controls;
}

/** The URL typed, if it is an http(s) address without query or fragment; else a problem. */
function readUrl(input, { origin = false } = {}) {
  let url;
  try {
    url = new URL(input.value.trim());
  } catch {
    return { problem: 'Write a full address, like https://shop.example.' };
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash)
    return { problem: 'Write an http(s) address without a query or a fragment.' };
  if (origin && url.pathname !== '/') return { problem: `Only the origin: ${url.origin}` };
  return { value: origin ? url.origin : url.href.replace(/\/$/, '') };
}

function showProblem(control, problem) {
  control.error.textContent = problem ?? '';
  if (problem) control.input.setAttribute('aria-invalid', 'true');
  else control.input.removeAttribute('aria-invalid');
}

/** A fresh widget with exactly these attributes (and this machine's relay), in place of the one shown. */
function showPreview(tag, attributes) {
  const widget = document.createElement(tag);
  widget.setAttribute('relay', liveRelay);
  for (const [name, value] of attributes) widget.setAttribute(name, value === true ? '' : value);
  // Paying keeps this page (and its options): the payment page is linked instead of opened.
  widget.addEventListener('billing-pay-redirect', (event) => {
    event.preventDefault();
    const link = element('a', { textContent: 'open its payment page', target: '_blank', rel: 'noopener' });
    if (/^https?:/.test(event.detail.url)) link.href = event.detail.url;
    previewStatus.replaceChildren('The relay created the payment: ', link, '.');
  });
  previewStatus.textContent = '';
  previewBox.replaceChildren(widget);
}

async function getJson(url) {
  const answer = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!answer.ok) throw new Error(`${url} answered ${answer.status}`);
  return answer.json();
}

/** Loads the widget's script as the snippet does: the hashed file, its integrity, CORS. */
function loadWidget(bundle) {
  const script = element('script', {
    type: 'module',
    src: relayUrl(liveRelay, bundle.file),
    integrity: bundle.integrity,
    crossOrigin: 'anonymous',
  });
  script.addEventListener('error', () => {
    formStatus.textContent = `The widget's script did not load from ${script.src}.`;
  });
  document.head.append(script);
}

async function copy(id) {
  const code = document.getElementById(id);
  const said = document.querySelector(`[data-copied="${id}"]`);
  try {
    await navigator.clipboard.writeText(code.textContent);
    said.textContent = 'Copied.';
  } catch {
    // No clipboard here (or it was refused): the text is selected for the keyboard's copy.
    window.getSelection().selectAllChildren(code);
    said.textContent = 'Selected: press Ctrl+C (⌘C on a Mac) to copy.';
  }
}

async function start() {
  const [options, bundles, config] = await Promise.all([
    getJson('playground-options.json'),
    getJson(relayUrl(liveRelay, 'bundles.json')),
    getJson(relayUrl(liveRelay, 'config')),
  ]);
  const bundle = bundles[`${options.tag}.js`];
  if (!bundle) throw new Error(`${liveRelay}/bundles.json has no ${options.tag}.js`);
  loadWidget(bundle);
  relayInput.value = liveRelay;
  originInput.value = window.location.origin;
  const controls = buildForm(options, config);
  const output = {
    html: document.getElementById('snippet-html'),
    env: document.getElementById('snippet-env'),
    css: document.getElementById('snippet-css'),
  };
  document.getElementById('css-part').hidden = options.tag !== 'billing-pay';
  const buttons = document.querySelectorAll('[data-copy]');
  const where = [
    { input: relayInput, error: document.getElementById('relay-address-error'), read: () => readUrl(relayInput) },
    {
      input: originInput,
      error: document.getElementById('page-origin-error'),
      read: () => readUrl(originInput, { origin: true }),
    },
  ];

  let shown = null;
  let previewTimer;
  const update = () => {
    const read = controls.map((c) => [c, c.read()]);
    const [relay, pageOrigin] = where.map((w) => [w, w.read()]);
    for (const [control, { problem }] of [...read, relay, pageOrigin]) showProblem(control, problem);
    const problems = [...read, relay, pageOrigin].filter(([, r]) => r.problem).length;
    formStatus.textContent = problems
      ? `Correct the ${problems > 1 ? `${problems} marked options` : 'marked option'}.`
      : '';
    for (const button of buttons) button.disabled = problems > 0;
    if (problems) {
      output.html.textContent = output.env.textContent = output.css.textContent = '';
      return;
    }
    const attributes = read.filter(([, r]) => r.value !== undefined).map(([c, r]) => [c.name, r.value]);
    const lang = attributes.find(([name]) => name === 'lang')?.[1];
    const snippet = embedSnippet({
      relay: relay[1].value,
      pageOrigin: pageOrigin[1].value,
      bundle,
      texts: lang && bundles[`billing-pay-${lang}.json`],
      tag: options.tag,
      attributes,
    });
    output.html.textContent = snippet.html;
    output.env.textContent = snippet.env;
    output.css.textContent = snippet.css;
    const key = JSON.stringify(attributes);
    if (key === shown) return;
    clearTimeout(previewTimer);
    // The first at once; later ones once the typing pauses (each new widget loads the relay's /config).
    if (shown === null) showPreview(options.tag, attributes);
    else previewTimer = setTimeout(() => showPreview(options.tag, attributes), 250);
    shown = key;
  };
  form.addEventListener('submit', (event) => event.preventDefault());
  form.addEventListener('input', update);
  form.addEventListener('change', update);
  for (const button of buttons) button.addEventListener('click', () => copy(button.dataset.copy));
  update();
}

// Not awaited at the top level: WebKitGTK hangs on a module whose top-level await is pending as its frame goes away.
start().catch((error) => {
  formStatus.textContent = `The playground could not start: ${error.message}`;
});
