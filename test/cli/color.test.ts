// Colour only on a terminal; NO_COLOR and FORCE_COLOR win; the decision is written in the words
// vitest's colour library reads (it takes any FORCE_COLOR, even "0", as "on").
import { describe, expect, it } from 'vitest';
import { settleColor, wantsColor } from '../../src/cli/color.ts';

describe('wantsColor', () => {
  it('colours a terminal and nothing else by default', () => {
    expect(wantsColor({}, true)).toBe(true);
    expect(wantsColor({}, false)).toBe(false);
  });

  it('honours NO_COLOR and FORCE_COLOR', () => {
    expect(wantsColor({ NO_COLOR: '1' }, true)).toBe(false);
    expect(wantsColor({ NO_COLOR: '' }, true)).toBe(true);
    expect(wantsColor({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(wantsColor({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(wantsColor({ FORCE_COLOR: 'false' }, true)).toBe(false);
    expect(wantsColor({ NO_COLOR: '1', FORCE_COLOR: '1' }, true)).toBe(false);
  });
});

describe('settleColor', () => {
  it('switches colour off by NO_COLOR and removes any FORCE_COLOR', () => {
    const env: NodeJS.ProcessEnv = { FORCE_COLOR: '0' };
    settleColor(env, true);
    expect(env).toEqual({ NO_COLOR: '1' });
  });

  it('switches colour on by FORCE_COLOR on a terminal', () => {
    const env: NodeJS.ProcessEnv = {};
    settleColor(env, true);
    expect(env).toEqual({ FORCE_COLOR: '1' });
  });
});
