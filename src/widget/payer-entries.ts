/**
 * What the payer entered in `<billing-pay>`'s form, held by one controller: the chosen system and lookup kind, the
 * typed texts, the save switches, the comment opened, and each field's problem. Every change re-renders the host.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { SystemId } from '../eps/systems.js';
import { NO_VALUES, type ValueKey } from './form-model.js';

export interface Entries {
  chosenSystem: SystemId | null;
  chosenKind: number | null;
  values: Record<ValueKey, string>;
  save: boolean;
  linkOnly: boolean;
  /** "Add a comment" was pressed. */
  commentOpen: boolean;
  /** Field path (`amount`, `eps_params.email`, …) → problem key, or a text from the relay. */
  problems: Record<string, string>;
}

/** A change of the entries: any of them, and any of the values. */
export type EntriesPatch = Partial<Omit<Entries, 'values'>> & { values?: Partial<Record<ValueKey, string>> };

export class PayerEntries implements ReactiveController {
  private current: Entries = {
    chosenSystem: null,
    chosenKind: null,
    values: { ...NO_VALUES },
    save: false,
    linkOnly: false,
    commentOpen: false,
    problems: {},
  };

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected(): void {}

  get value(): Readonly<Entries> {
    return this.current;
  }

  /** Changes some entries (`values` key by key). */
  set(patch: EntriesPatch): void {
    this.current = { ...this.current, ...patch, values: { ...this.current.values, ...patch.values } };
    this.host.requestUpdate();
  }
}
