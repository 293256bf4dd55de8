/**
 * The loading step of `<billing-pay>`: the relay's `/config` and, with a client session, the agreement it names (a
 * session that fails is ignored). "Try again" after failures in a row waits longer each time (1, 2, 4… s, 30 at most);
 * a new load or the element's removal aborts the one in flight.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { SESSION_LOOKUP_KIND } from '../eps/lookup.js';
import { toPayError } from './pay-error.js';
import type { PaymentOptions } from '../eps/relay-api.js';
import { fetchConfig, sleep } from './relay-client.js';
import { fetchSessionAgreement } from './session-client.js';

export interface LoadedConfig {
  config: PaymentOptions;
  /** The agreement the session names, where the relay offers finding it by its ID; else empty. */
  sessionAgreement: string;
}

export class ConfigLoader implements ReactiveController {
  /** Failed loads in a row. */
  failures = 0;
  private abort?: AbortController;

  constructor(host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.abort?.abort();
  }

  /** Aborts the load in flight, if any. */
  cancel(): void {
    this.abort?.abort();
  }

  /** The config, or `null` when this load was cut short (a newer one, or removal); a failure throws a `PayError`. */
  async load(relay: string, session: string, { retry = false } = {}): Promise<LoadedConfig | null> {
    this.cancel();
    const controller = (this.abort = new AbortController());
    try {
      if (retry && this.failures > 1) await sleep(Math.min(1000 * 2 ** (this.failures - 2), 30_000), controller.signal);
      const [config, agreement] = await Promise.all([
        fetchConfig(relay, controller.signal),
        session ? fetchSessionAgreement(relay, session, controller.signal).catch(() => 0) : 0,
      ]);
      this.failures = 0;
      return {
        config,
        sessionAgreement: agreement && config.lookups.includes(SESSION_LOOKUP_KIND) ? String(agreement) : '',
      };
    } catch (error) {
      if (controller.signal.aborted) return null;
      this.failures++;
      throw toPayError(error);
    }
  }
}
