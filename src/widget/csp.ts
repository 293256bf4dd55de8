/**
 * Zod compiles object parsers with `new Function` unless told not to, and probes for it when the first object schema
 * is made: under a strict Content-Security-Policy that probe is reported as a violation. The widget never evals, so
 * this module, imported before any schema exists, switches zod to its interpreter. It sets no DOM state; it does set
 * zod's global configuration (`globalThis.__zod_globalConfig`), which a page's own copy of zod shares.
 */
import { config } from 'zod/mini';

config({ jitless: true });
