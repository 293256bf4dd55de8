/**
 * `npm run build`, last step: `custom-elements.json` (package.json `customElements`), the elements' API for editors
 * and documentation, from the JSDoc headers of the components (`@summary`, `@fires`, `@csspart`, `@cssprop`,
 * `@attr`) and their Lit properties. Module paths (`src/…`, and `/src/…` in the tags' definitions) point at the
 * published ES modules in dist/lib.
 */
export default {
  globs: ['src/widget/*.ts'],
  exclude: ['src/widget/react.ts', 'src/widget/vue.ts', 'src/widget/bundle.ts'],
  outdir: '.',
  litelement: true,
  plugins: [
    {
      name: 'billing-pay:published-paths',
      packageLinkPhase({ customElementsManifest }) {
        const published = (path) => path.replace(/^\/?src\//, 'dist/lib/').replace(/\.ts$/, '.js');
        const visit = (node) => {
          if (Array.isArray(node)) node.forEach(visit);
          else if (node && typeof node === 'object') {
            for (const [key, value] of Object.entries(node)) {
              if ((key === 'path' || key === 'module') && typeof value === 'string') node[key] = published(value);
              else visit(value);
            }
          }
        };
        visit(customElementsManifest.modules);
      },
    },
  ],
};
