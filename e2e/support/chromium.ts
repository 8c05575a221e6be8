/**
 * How the e2e tier and the UI bench launch a browser: Debian's Chromium (Playwright's own builds
 * cannot be downloaded here), headless, with everything that would reach the network turned off.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.SHADOWBOX_CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};
