// Judging one answer to a generated request, by the rules of the catalogue: GNR-01 (never a 5xx),
// GNR-02 (a valid request is answered as the spec allows), GNR-03 (an invalid one is refused),
// GNR-04 (a write reads back equal). A 429 or a disabled feature proves nothing: inconclusive.
import { isDeepStrictEqual } from 'node:util';
import { errorCode } from '../../common/error-body.ts';
import { isJsonMediaType } from '../../common/media-type.ts';
import type { ApiResponse } from '../client/index.ts';
import { type OperationInfo, validateResponse } from '../contract/index.ts';
import type { Expectation, Expected } from './semantics.ts';

export type GeneratedRule = 'GNR-01' | 'GNR-02' | 'GNR-03' | 'GNR-04';

export type Verdict =
  | { kind: 'pass' }
  | { kind: 'inconclusive'; reason: string }
  | { kind: 'violation'; rule: GeneratedRule; message: string };

const PASS: Verdict = { kind: 'pass' };

const codeOf = (res: ApiResponse): string | undefined => errorCode(res.body);

export function shortStatus(res: ApiResponse): string {
  const code = codeOf(res);
  return `${res.status}${code ? ` ${code}` : ''}`;
}

/** What no answer may be, whatever was sent. */
function beforeAll(res: ApiResponse): Verdict | undefined {
  if (res.status === 503 && codeOf(res) === 'FEATURE_FLAG_DISABLED') {
    return {
      kind: 'inconclusive',
      reason: 'the route is disabled by a feature flag (503 FEATURE_FLAG_DISABLED)',
    };
  }
  if (res.status >= 500) {
    return { kind: 'violation', rule: 'GNR-01', message: `answered ${shortStatus(res)}, a server error` };
  }
  if (res.status === 429) return { kind: 'inconclusive', reason: 'the rate limiter refused it (429)' };
  return undefined;
}

/** A 2xx: a JSON body (when there is one) that matches the operation's schema for the status. */
function answerProblem(op: OperationInfo, res: ApiResponse): string | undefined {
  if (res.text.length > 0 && !(isJsonMediaType(res.headers['content-type'] ?? '') && res.isJson)) {
    return `answered ${res.status} with a body that is not JSON (${res.headers['content-type'] ?? 'no content type'})`;
  }
  const result = validateResponse(op.operationId, res.status, res.isJson ? res.body : undefined);
  return result.valid
    ? undefined
    : `answered ${res.status} that breaks the schema: ${result.errors.slice(0, 3).join('; ')}`;
}

/** A refusal: a 4xx, with the error body on the main service (the demo's errors are not shown). */
function refusalProblem(op: OperationInfo, res: ApiResponse): string | undefined {
  if (res.status < 400 || res.status >= 500) return `answered ${res.status}, not a 4xx refusal`;
  if (op.service !== 'main') return undefined;
  if (!res.isJson) return `refused with ${res.status} but without a JSON error body`;
  const result = validateResponse(op.operationId, res.status, res.body);
  return result.valid
    ? undefined
    : `refused with ${res.status} whose error body breaks the schema: ${result.errors.slice(0, 3).join('; ')}`;
}

export function judgeValid(
  op: OperationInfo,
  expected: Expected,
  res: ApiResponse,
  equalTo?: unknown,
): Verdict {
  const early = beforeAll(res);
  if (early) return early;
  const violation = (message: string): Verdict => ({ kind: 'violation', rule: 'GNR-02', message });
  const success = res.status >= 200 && res.status < 300;
  if (success) {
    if (expected.kind === 'refusal') return violation(`answered ${res.status}, though ${expected.why}`);
    const problem = answerProblem(op, res);
    if (problem) return violation(problem);
    if (equalTo !== undefined && !isDeepStrictEqual(res.body, equalTo)) {
      return violation(
        `answered ${JSON.stringify(res.body)?.slice(0, 160)}, not what the listing showed: ${JSON.stringify(equalTo)?.slice(0, 160)}`,
      );
    }
    return PASS;
  }
  if (expected.kind === 'success') return violation(`a valid request was answered ${shortStatus(res)}`);
  const problem = refusalProblem(op, res);
  return problem ? violation(problem) : PASS;
}

export function judgeInvalid(op: OperationInfo, expectation: Expectation, res: ApiResponse): Verdict {
  const early = beforeAll(res);
  if (early) return early;
  const violation = (message: string): Verdict => ({ kind: 'violation', rule: 'GNR-03', message });
  const success = res.status >= 200 && res.status < 300;
  if (expectation.kind === 'tolerate') {
    // Open in the spec: a refusal or an answer, but an answer must still match the schema.
    const problem = success ? answerProblem(op, res) : undefined;
    return problem ? violation(problem) : PASS;
  }
  if (success) return violation(`accepted with ${res.status}`);
  const problem = refusalProblem(op, res);
  return problem ? violation(problem) : PASS;
}

/** A created resource read back: 200 and every field sent, equal. */
export function judgeReadBack(sent: Record<string, unknown>, res: ApiResponse): Verdict {
  const early = beforeAll(res);
  if (early) return early;
  if (res.status !== 200) {
    return {
      kind: 'violation',
      rule: 'GNR-04',
      message: `created, but reading it back answered ${shortStatus(res)}`,
    };
  }
  const got = (res.isJson ? res.body : undefined) as Record<string, unknown> | undefined;
  const differs = Object.keys(sent).filter((k) => !isDeepStrictEqual(got?.[k], sent[k]));
  return differs.length === 0
    ? PASS
    : {
        kind: 'violation',
        rule: 'GNR-04',
        message: `created, but read back with ${differs.map((k) => `${k} ${JSON.stringify(got?.[k]) ?? 'missing'} (sent ${JSON.stringify(sent[k])})`).join(', ')}`,
      };
}
