// The production guard lives once, k6-safe, in load/lib/shared/guard.ts: the k6 scripts apply
// the same rule. The suite reaches it here.
export { type GuardedAction, type GuardVerdict, guard } from '../../load/lib/shared/guard.ts';
