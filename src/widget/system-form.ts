/**
 * What the form reads of each payment system, from the model's `SYSTEMS`: the payer's texts it takes and the
 * parameters that save a method or only link one. A built bundle carries this table as the build made it
 * (`__BP_SYSTEM_FORMS__`), not `SYSTEMS`: the parameters' kinds, return addresses and defaults are the submit chain's.
 */
import { canSaveMethod, SYSTEM_IDS, SYSTEMS, type SystemId } from '../eps/systems.js';
import { TEXT_PARAMS } from './request.js';

export interface SystemForm {
  /** The optional texts it takes, of `TEXT_PARAMS`. */
  takes: string[];
  /** It can save a payment method. */
  canSave: boolean;
  /** The parameters that save a method and connect autopayments, then those that only link one (none without saving). */
  saveParams: string[];
  /** It can only link a method (a test payment, then cancelled). */
  linkOnly: boolean;
}

export function systemForms(): Record<SystemId, SystemForm> {
  return Object.fromEntries(
    SYSTEM_IDS.map((id) => {
      const spec = SYSTEMS[id];
      const canSave = canSaveMethod(id);
      return [
        id,
        {
          takes: TEXT_PARAMS.filter((name) => Object.hasOwn(spec.params, name)),
          canSave,
          saveParams: canSave ? Object.keys({ ...spec.autopay, ...spec.linkOnly }) : [],
          linkOnly: canSave && spec.linkOnly !== undefined,
        },
      ];
    }),
  ) as Record<SystemId, SystemForm>;
}

/** Set by the build: `systemForms()` as it made it. */
declare const __BP_SYSTEM_FORMS__: Record<SystemId, SystemForm> | undefined;

export const SYSTEM_FORMS: Record<SystemId, SystemForm> =
  typeof __BP_SYSTEM_FORMS__ === 'object' ? __BP_SYSTEM_FORMS__ : systemForms();
