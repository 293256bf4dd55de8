/**
 * The bench's reference for the widget: a trivial Lit element built the same way as `dist/billing-pay.js` (Lit
 * bundled, minified, same decorators), its template read at run time by Lit's parser, as Lit ships. Like
 * `<billing-pay>` it reads `{relay}/config`, renders once it has it and then fires an event, so that both pay the same
 * network and Lit's own cost; what the widget costs beyond this is its own code.
 */
import { LitElement, css, html, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';

export class BenchReference extends LitElement {
  static override styles = css`
    :host {
      display: block;
    }
  `;

  @state() private systems: string[] = [];

  /** Base URL of the relay. */
  @property() relay = '';

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('relay')) void this.load();
  }

  private async load(): Promise<void> {
    const response = await fetch(`${this.relay}/config`);
    const config = (await response.json()) as { systems: { id: string }[] };
    this.systems = config.systems.map((system) => system.id);
    await this.updateComplete;
    this.dispatchEvent(new CustomEvent('bench-reference-ready', { bubbles: true, composed: true }));
  }

  override render() {
    return html`<ul>
      ${this.systems.map((id) => html`<li>${id}</li>`)}
    </ul>`;
  }
}

if (typeof customElements !== 'undefined' && !customElements.get('bench-reference')) {
  customElements.define('bench-reference', BenchReference);
}
