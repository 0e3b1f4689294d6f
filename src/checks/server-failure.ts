// "Never a 5xx" (GNR-01), the one reading for every place that judges an answer: the invariant over
// every exchange of the run, and check(), which never lets a check end as inconclusive when one of
// its own exchanges was a server failure. The spec's one 5xx is the 503 FEATURE_FLAG_DISABLED of a
// disabled feature ("code and status are always these").
import { errorCode } from '../../common/error-body.ts';
import type { RecordedExchange } from '../client/index.ts';

const FLAG_DISABLED = 'FEATURE_FLAG_DISABLED';

function codeOf(text: string | undefined): string | undefined {
  if (!text) return undefined;
  try {
    return errorCode(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** Why this answer is a server failure, or undefined when it is not one (or got no answer). */
export function serverFailureOf(e: Pick<RecordedExchange, 'status' | 'responseBody'>): string | undefined {
  if (e.status === undefined || e.status < 500 || e.status > 599) return undefined;
  if (e.status === 503 && codeOf(e.responseBody) === FLAG_DISABLED) return undefined;
  return `answered HTTP ${e.status}, a server error (a 5xx is never a refusal or an inconclusive answer)`;
}
