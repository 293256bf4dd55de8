/**
 * How Debian's Chromium is started here, for the tests (test/widget/engines.ts), the bench and the screenshots: as
 * root it needs `--no-sandbox`, and on a closed network the background services would only flood it with refused
 * connections.
 */
export const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
    '--disable-features=PreloadTopChromeWebUI,WebUIOmniboxPopup,WebUIOmniboxAimPopup',
  ],
};
