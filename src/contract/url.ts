// Fills an operation's path template, so a check can call any operation by its index entry.
import type { OperationInfo } from './operations.ts';

/**
 * The operation's path with its path parameters filled in (each URL-encoded), in the client's
 * form: relative to the service base, without the leading slash ('pets/7', 'v1/customers').
 */
export function buildOperationUrlPath(
  op: Pick<OperationInfo, 'operationId' | 'path'>,
  params: Record<string, string | number> = {},
): string {
  const filled = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${op.operationId} needs the path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  return filled.replace(/^\/+/, '');
}
