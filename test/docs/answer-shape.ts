/**
 * An answer as the docs show it, compared with a real one by its shape. The docs write JSON with `…` where they leave
 * something out (`{"faults":{…}}`, `[{…}, …]`); the values are a sample (the sandbox's clock, ids, tokens differ from
 * run to run), so what is compared is that every key shown is there with a value of the same JSON type, and that each
 * element an array shows has a like element in the real array.
 */

/** The JSON of a doc's answer, `…` left out where it stands for more keys or elements. */
export function parseShown(text: string): unknown {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c !== '…') out += c;
  }
  // What `…` leaves behind outside strings: `, ]`, `{ , "a"` and the like.
  return JSON.parse(out.replace(/,(\s*[\]}])/g, '$1').replace(/([[{]\s*),/g, '$1'));
}

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** Where `actual` does not have the shape of `shown`: one line per difference, empty when it has. */
export function shapeProblems(shown: unknown, actual: unknown, path = '$'): string[] {
  if (typeOf(shown) !== typeOf(actual)) return [`${path}: shown as ${typeOf(shown)}, is ${JSON.stringify(actual)}`];
  if (Array.isArray(shown)) {
    const items = actual as unknown[];
    return shown.flatMap((item, i) =>
      items.some((real) => shapeProblems(item, real).length === 0)
        ? []
        : [`${path}[${i}]: no element like ${JSON.stringify(item)} in ${JSON.stringify(items).slice(0, 300)}`],
    );
  }
  if (typeOf(shown) === 'object') {
    const real = actual as Record<string, unknown>;
    return Object.entries(shown as Record<string, unknown>).flatMap(([key, value]) =>
      key in real ? shapeProblems(value, real[key], `${path}.${key}`) : [`${path}: no key "${key}"`],
    );
  }
  return [];
}
