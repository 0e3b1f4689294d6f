// A Stryker ignorer: the reference server's fault branches (`faults.has(...)`) are test fixtures,
// not the server's behaviour. With no fault switched on they never run, so a mutant inside one
// would survive whatever the suite checks: the condition and the faulty path are left unmutated,
// the correct path is mutated as any other code.
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const FAULT = /\bfaults\.has\(/;
const sourceOf = (path) => path.getSource?.() ?? '';

function shouldIgnore(path) {
  const parent = path.parentPath;
  if (!parent) return undefined;
  const reason = 'a fault branch of the reference server (runs only with that fault switched on)';
  const key = path.key;
  // `if (faults.has(x)) A` and `faults.has(x) ? A : B`: the test and A are the fault's.
  if (parent.isIfStatement() || parent.isConditionalExpression()) {
    const test = parent.get('test');
    if (FAULT.test(sourceOf(test)) && (key === 'test' || key === 'consequent')) return reason;
  }
  // `a || faults.has(x)`, `faults.has(x) && b`: the operand that asks for a fault.
  if (parent.isLogicalExpression() && FAULT.test(sourceOf(path))) return reason;
  // A variable that only says whether a fault is on (`const loose = faults.has(...)`).
  if (parent.isVariableDeclarator() && key === 'init' && FAULT.test(sourceOf(path)) && !path.isFunction())
    return reason;
  return undefined;
}

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, 'fault-branches', { shouldIgnore })];
