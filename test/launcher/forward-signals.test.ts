// The one way load runs pass Ctrl+C and SIGTERM on to k6: the first is passed and announced, npm's
// copy of it (within a second) is dropped, a later one is passed again (k6 then ends at once).
import { afterEach, expect, it } from 'vitest';
import { forwardSignals, SIGNAL_COPY_MS, type SignalForwarding } from '../../src/launcher/forward-signals.ts';

let forwarding: SignalForwarding | undefined;
afterEach(() => forwarding?.dispose());

function setUp() {
  let now = 1_000;
  const passed: NodeJS.Signals[] = [];
  const announced: NodeJS.Signals[] = [];
  forwarding = forwardSignals(
    (s) => passed.push(s),
    (s) => announced.push(s),
    () => now,
  );
  return { passed, announced, later: (ms: number) => (now += ms) };
}

it('passes the first signal and announces it once; a copy within a second is dropped', () => {
  const { passed, announced, later } = setUp();
  expect(forwarding?.interruptedBy).toBeUndefined();
  process.emit('SIGINT', 'SIGINT');
  later(SIGNAL_COPY_MS - 1);
  process.emit('SIGINT', 'SIGINT');
  expect(passed).toEqual(['SIGINT']);
  expect(announced).toEqual(['SIGINT']);
  expect(forwarding?.interruptedBy).toBe('SIGINT');
});

it('a second signal a second later is passed on (ending k6 at once), not announced again', () => {
  const { passed, announced, later } = setUp();
  process.emit('SIGTERM', 'SIGTERM');
  later(SIGNAL_COPY_MS);
  process.emit('SIGINT', 'SIGINT');
  expect(passed).toEqual(['SIGTERM', 'SIGINT']);
  expect(announced).toEqual(['SIGTERM']);
  expect(forwarding?.interruptedBy).toBe('SIGTERM');
});

it('after dispose it no longer listens', () => {
  const { passed } = setUp();
  const before = process.listenerCount('SIGINT');
  forwarding?.dispose();
  expect(process.listenerCount('SIGINT')).toBe(before - 1);
  expect(passed).toEqual([]);
});
