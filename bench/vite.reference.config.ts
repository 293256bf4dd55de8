/**
 * Builds the bench's Lit reference element exactly as `vite.config.ts` builds the widget (same target, minifier,
 * plugins and library options: its template prepared at build time, Lit's parser left out), only from another entry
 * into `bench/tmp/reference/`. Used by `npm run bench`.
 */
import { defineConfig, type UserConfig } from 'vite';
import widgetConfig, { compiledTemplates } from '../vite.config.js';

const widget = widgetConfig({ mode: 'production', command: 'build' }) as UserConfig;
const { build = {} } = widget;
if (!build.lib) throw new Error('vite.config.ts no longer builds a library: update the bench reference build');

export default defineConfig({
  ...widget,
  plugins: [compiledTemplates(/[\\/]bench[\\/]reference-element\.ts$/), ...(widget.plugins ?? [])],
  build: {
    ...build,
    outDir: 'bench/tmp/reference',
    emptyOutDir: true,
    lib: { ...build.lib, entry: 'bench/reference-element.ts', fileName: () => 'reference-element.js' },
  },
});
