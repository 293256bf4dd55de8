/**
 * Builds the bench's Lit reference element as `vite.config.ts` builds the widget (same target, minifier, plugins and
 * library options), only from another entry into `bench/tmp/reference/`. Used by `npm run bench`. The floor is a Lit
 * element as Lit's users write and ship it: Lit reads its template at run time, so it keeps Lit's template parser and
 * the features the widget's bundles leave out because no widget file uses them (`litUnused`, whose guard would refuse
 * this element's decorators).
 */
import { defineConfig, type PluginOption, type UserConfig } from 'vite';
import { LIT_UNUSED, LIT_UNUSED_GUARD } from '../scripts/build/lit-unused.js';
import widgetConfig from '../vite.config.js';

const widget = widgetConfig({ mode: 'production', command: 'build' }) as UserConfig;
const { build = {} } = widget;
if (!build.lib) throw new Error('vite.config.ts no longer builds a library: update the bench reference build');
const named = (p: PluginOption) => (p && typeof p === 'object' && 'name' in p ? p.name : undefined);
const LIT_AS_SHIPPED = [LIT_UNUSED, LIT_UNUSED_GUARD];
const plugins = (widget.plugins ?? []).filter((p) => !LIT_AS_SHIPPED.includes(named(p) ?? ''));
if (plugins.length !== (widget.plugins?.length ?? 0) - LIT_AS_SHIPPED.length)
  throw new Error(`vite.config.ts lacks one of ${LIT_AS_SHIPPED.join(', ')} to leave out`);

export default defineConfig({
  ...widget,
  plugins,
  build: {
    ...build,
    outDir: 'bench/tmp/reference',
    emptyOutDir: true,
    lib: { ...build.lib, entry: 'bench/reference-element.ts', fileName: () => 'reference-element.js' },
  },
});
