/** The payer's return in a new tab or the same one, in English; and the addresses that must show nothing. */
import { returnTabSuite } from './return-tab.js';

returnTabSuite(['en'], true);
