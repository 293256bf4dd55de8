// `npm run lint` checks the format with Prettier beside ESLint (which checks the rules, not the layout); `npm run format`
// writes it. Lit's `html` and `css` templates are left as written: whitespace inside inline markup is rendered text, and
// the build minifies the templates anyway.
/** @type {import('prettier').Config} */
export default {
  printWidth: 120,
  singleQuote: true,
  embeddedLanguageFormatting: 'off',
};
