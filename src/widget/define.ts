/**
 * Whether a tag may be registered: not where there is no `customElements` (Node, server rendering: importing must
 * not throw), nor where the page already has the tag. The registration files call `customElements.define` themselves,
 * where the custom-elements manifest analyzer sees it.
 */
export function canDefine(tag: string): boolean {
  return typeof customElements !== 'undefined' && !customElements.get(tag);
}
