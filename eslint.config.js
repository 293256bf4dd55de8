// `npm run lint` (part of `npm test`, zero warnings): ESLint's and typescript-eslint's recommended rules everywhere,
// eslint-plugin-lit's on every Lit template, and for the widget eslint-plugin-lit-a11y's recommended and
// eslint-plugin-wc's best-practice rules. Types are checked by `npm run typecheck`; the rules here need no type
// information (typescript-eslint's type-checked set took 2.5 times as long and mostly flagged Chai and node:test calls).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import lit from 'eslint-plugin-lit';
import litA11y from 'eslint-plugin-lit-a11y';
import wc from 'eslint-plugin-wc';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'bench/tmp/', 'screenshots/', 'docs/'] },
  {
    files: ['**/*.{ts,js,mjs}'],
    extends: [js.configs.recommended, tseslint.configs.recommended, lit.configs['flat/recommended']],
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['src/widget/**/*.ts', 'test/widget/**/*.ts', 'demo/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src/widget/**/*.ts'],
    extends: [litA11y.configs.recommended, wc.configs['flat/best-practice']],
    settings: { wc: { elementBaseClasses: ['LitElement'] } },
    rules: {
      // LitElement implements every lifecycle callback (and TypeScript knows it); Lit wants the super call unguarded.
      'wc/guard-super-call': 'off',
    },
  },
  {
    files: ['test/widget/**/*.test.ts'],
    rules: {
      // Chai's property assertions (`expect(x).to.be.true`, `.to.exist`, `.to.have.been.calledOnce`) are getters.
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
);
