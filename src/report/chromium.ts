// The browser that shows a report to a person or a test: Debian's chromium (CHROMIUM_PATH to use
// another), started so that it fetches, syncs and updates nothing on the side (this machine's
// network is closed, and a report must open with none).
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
