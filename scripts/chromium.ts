/**
 * How Debian's Chromium is started here, for the tests (test/widget/engines.ts), the bench and the screenshots: as
 * root it needs `--no-sandbox`, and on a closed network the background services would only flood it with refused
 * connections. Chromium 156 also loads the omnibox popup's WebUI (about 400 `chrome://` requests) beside every new
 * context's page: on two cores that takes CPU from the page under test, so those features are off.
 */
export const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  // A new list each time: Puppeteer takes `--disable-features` out of the list it is given (merging it with its own).
  get args() {
    return [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-features=PreloadTopChromeWebUI,WebUIOmniboxPopup,WebUIOmniboxAimPopup',
    ];
  },
};
