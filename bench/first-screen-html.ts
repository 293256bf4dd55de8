/**
 * What Lit's first render of the form costs, for bench/profile.ts (`PROFILE_FIRST_SCREEN=1`): the widget's bundle as
 * built, whose first ready render writes the form's HTML from its templates and sets it at once
 * (bench/first-screen-patch.ts). It shows the form and fires `billing-pay-ready`; it is not a working widget (the
 * form's listeners are Lit's, and Lit did not draw it).
 */
import './first-screen-patch.js';
import '../src/widget/billing-pay.js';
