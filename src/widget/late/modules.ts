/** The late modules, by name: each is `NAME.late.ts` here, built to `billing-pay-NAME.js` (scripts/build-late.ts). */
export const LATE_SOURCES = {
  pay: () => import('./pay.late.js'),
  return: () => import('./return.late.js'),
};

export type LateModules = { [K in keyof typeof LATE_SOURCES]: Awaited<ReturnType<(typeof LATE_SOURCES)[K]>> };
