import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Where an element is: waiting for what it loads, usable, or unable to load it. */
export type ReadyState = 'loading' | 'ready' | 'failed';

/**
 * The readiness of an element, for a page that looks late: an event fired before the page's script listened is lost
 * (WebKit fetched the demo's later module only after `/config` had answered), so the element also says where it is in
 * its `state` property and reflects it to a `state` attribute (`billing-pay[state='ready']` in CSS, too).
 * The attribute is the element's output: a page that sets it changes nothing, and the next change puts it right.
 */
export class Readiness implements ReactiveController {
  value: ReadyState = 'loading';

  constructor(private readonly host: ReactiveControllerHost & HTMLElement) {
    host.addController(this);
  }

  /** Moves to `state`. */
  set(state: ReadyState): void {
    if (state === this.value) return;
    this.value = state;
    this.reflect();
    this.host.requestUpdate();
  }

  hostConnected(): void {
    // Not in the constructor: a custom element may not add attributes while it is created.
    this.reflect();
  }

  private reflect(): void {
    if (this.host.isConnected && this.host.getAttribute('state') !== this.value)
      this.host.setAttribute('state', this.value);
  }
}
