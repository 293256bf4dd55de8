/**
 * Builds bench/first-screen-html.ts exactly as `vite.config.ts` builds the widget (same plugins, minifier and library
 * options), into `bench/tmp/first-screen/`. Used by bench/profile.ts with `PROFILE_FIRST_SCREEN=1`.
 */
import { defineConfig, type UserConfig } from 'vite';
import widgetConfig from '../vite.config.js';

const widget = widgetConfig({ mode: 'production', command: 'build' }) as UserConfig;
const { build = {} } = widget;
if (!build.lib) throw new Error('vite.config.ts no longer builds a library: update the bench first-screen build');

export default defineConfig({
  ...widget,
  build: {
    ...build,
    outDir: 'bench/tmp/first-screen',
    emptyOutDir: true,
    lib: { ...build.lib, entry: 'bench/first-screen-html.ts', fileName: () => 'first-screen-html.js' },
  },
});
