// Fills an operation's path template, so a check can call any operation by its index entry.
import { pathSegment } from '../../common/origin.ts';
import type { OperationInfo } from './operations.ts';

// Values from the target (an id from a list) become paths only through this: one segment each.
export { pathSegment };

/**
 * The operation's path with its path parameters filled in (each encoded as one path segment, pathSegment), in the client's
 * form: relative to the service base, without the leading slash ('pets/7', 'v1/customers').
 */
export function buildOperationUrlPath(
  op: Pick<OperationInfo, 'operationId' | 'path'>,
  params: Record<string, string | number> = {},
): string {
  const filled = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${op.operationId} needs the path parameter ${name}`);
    return pathSegment(value);
  });
  return filled.replace(/^\/+/, '');
}
