/** The payer's return in a new tab or the same one, in Russian. */
import { returnTabSuite } from './return-tab.js';

returnTabSuite(['ru'], false);
