// The three k6 scripts the CLI runs, and what each needs of the target.
export const LOAD_SCRIPTS = {
  'rate-limit': {
    file: 'load/rate-limit.ts',
    // Only the limiter is probed: no clock to move, no flags to switch.
    control: false,
    petstore: false,
  },
  'flag-cache': {
    file: 'load/flag-cache.ts',
    // With the reference server it switches flags and moves the clock (a 60 s window in seconds).
    control: true,
    petstore: false,
  },
  release: {
    file: 'load/release.ts',
    control: false,
    // Lists pets unless RELEASE_PETS is off: the production guard must allow the pet demo.
    petstore: true,
  },
} as const;

export type LoadScriptName = keyof typeof LOAD_SCRIPTS;

export function isLoadScript(name: string): name is LoadScriptName {
  return Object.hasOwn(LOAD_SCRIPTS, name);
}
