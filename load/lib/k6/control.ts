// The reference server's control API (REFERENCE_CONTROL_URL, only with the local reference server):
// moving its virtual clock and switching a flag make the flag-cache probe quick and meaningful.
import http from 'k6/http';

function route(controlUrl: string, path: string): string {
  return `${controlUrl.replace(/\/+$/, '')}/${path}`;
}

const params = {
  headers: { 'content-type': 'application/json' },
  tags: { name: 'control', endpoint: 'control' },
};

/** Throws when the control API refuses: a probe that cannot steer its server must not pretend. */
function expectOk(what: string, status: number): void {
  if (status < 200 || status >= 300) throw new Error(`control API: ${what} answered HTTP ${status}`);
}

export function advanceClock(controlUrl: string, seconds: number): void {
  const res = http.post(route(controlUrl, 'clock/advance'), JSON.stringify({ seconds }), params);
  expectOk('clock/advance', res.status);
}

export function setFeature(controlUrl: string, name: string, enabled: boolean): void {
  const res = http.put(
    route(controlUrl, `features/${encodeURIComponent(name)}`),
    JSON.stringify({ enabled }),
    params,
  );
  expectOk(`features/${name}`, res.status);
}
