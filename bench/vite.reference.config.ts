/**
 * Builds the bench's Lit reference element exactly as `vite.config.ts` builds the widget (same target, minifier,
 * plugins and library options), only from another entry into `bench/tmp/reference/`. Used by `npm run bench`.
 */
import { defineConfig, type UserConfig } from 'vite';
import widgetConfig from '../vite.config.js';

const widget = widgetConfig({ mode: 'production', command: 'build' }) as UserConfig;
const { build = {} } = widget;
if (!build.lib) throw new Error('vite.config.ts no longer builds a library: update the bench reference build');

export default defineConfig({
  ...widget,
  build: {
    ...build,
    outDir: 'bench/tmp/reference',
    emptyOutDir: true,
    lib: { ...build.lib, entry: 'bench/reference-element.ts', fileName: () => 'reference-element.js' },
  },
});
