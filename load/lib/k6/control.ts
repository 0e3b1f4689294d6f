// The reference server's control API (REFERENCE_CONTROL_URL, only with the local reference server):
// moving its virtual clock and switching a flag make the flag-cache probe quick and meaningful.
// Sent through send() like every request: its own origin only, no redirect, no cookie, no body kept.

import { pathSegment } from '../../../common/origin.ts';
import { trimTrailingSlashes } from '../../../common/trailing-slashes.ts';
import { ReadGate } from '../bounded-read.ts';
import type { LoadConfig } from '../config.ts';
import { readBounded, send } from './http.ts';

function route(config: LoadConfig, path: string): string {
  if (!config.controlUrl) throw new Error('control API: REFERENCE_CONTROL_URL is not set');
  return `${trimTrailingSlashes(config.controlUrl)}/${path}`;
}

const options = {
  headers: { 'content-type': 'application/json' },
  tags: { name: 'control', endpoint: 'control' },
};

/** Throws when the control API refuses: a probe that cannot steer its server must not pretend. */
function expectOk(what: string, status: number): void {
  if (status < 200 || status >= 300) throw new Error(`control API: ${what} answered HTTP ${status}`);
}

export function advanceClock(config: LoadConfig, seconds: number): void {
  const res = send(
    config,
    'POST',
    route(config, 'clock/advance'),
    JSON.stringify({ seconds }),
    options,
    true,
  );
  expectOk('clock/advance', res.status);
}

export function setFeature(config: LoadConfig, name: string, enabled: boolean): void {
  const res = send(
    config,
    'PUT',
    route(config, `features/${pathSegment(name)}`),
    JSON.stringify({ enabled }),
    options,
    true,
  );
  expectOk(`features/${name}`, res.status);
}

/** Per virtual user: whether its last control answer declared a readable size (read like any body). */
const clockGate = new ReadGate();

/**
 * The reference server's own (virtual) clock, in ms since the epoch. The flag-cache probe brackets
 * each poll with two readings, so where a poll fell on the clock the cache runs on is measured, not
 * modelled from the ticks (a starved k6 sends its polls and its clock moves late).
 */
export function serverClockMs(config: LoadConfig): number {
  const read = readBounded(config, 'GET', route(config, ''), null, options, clockGate, () => 'clock', true);
  expectOk('GET /', read.status);
  let now: unknown;
  try {
    now = (JSON.parse(read.body ?? '') as { now?: unknown }).now;
  } catch {
    now = undefined;
  }
  const ms = typeof now === 'string' ? Date.parse(now) : Number.NaN;
  if (!Number.isFinite(ms)) throw new Error('control API: GET / did not say the server clock (now)');
  return ms;
}
