/**
 * The `billing-pay-relay` command, the entry `npm run build` bundles into `dist/relay/server.js`: it refuses a Node the
 * relay does not run on, in one line, before anything else runs. The rest is imported only then: a static import would
 * be evaluated before this module's own code.
 */
import { isSupportedNode, MIN_NODE } from './config/node-version.js';

if (!isSupportedNode(process.version)) {
  console.error(`billing-pay-relay needs Node ${MIN_NODE} or later; this is Node ${process.version}.`);
  process.exit(1);
}
const { runRelayCommand } = await import('./server.js');
await runRelayCommand(process.argv.slice(2));
