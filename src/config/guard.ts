// The production guard lives once, k6-safe, in common/guard.ts: the k6 scripts apply
// the same rule. The suite reaches it here.
export { type GuardedAction, type GuardVerdict, guard, isProduction } from '../../common/guard.ts';
