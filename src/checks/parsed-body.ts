// Each recorded answer's body read as JSON once, whoever asks: the invariants, the JSON-bytes
// judgement and the generated requests' evidence all read the same bodies (a run's 225 error
// answers of 60 KB each were parsed 14 times over, then 3 times). A recorded exchange is never
// changed after it is recorded, so its parse is kept with it.
import type { RecordedExchange } from '../client/index.ts';

export type ParsedBody = { ok: true; value: unknown } | { ok: false };

const parsed = new WeakMap<Pick<RecordedExchange, 'responseBody'>, ParsedBody>();

/** JSON.parse of the body as recorded (values as JSON.parse gives them); not ok when it is none or no JSON. */
export function parsedBody(e: Pick<RecordedExchange, 'responseBody'>): ParsedBody {
  const known = parsed.get(e);
  if (known) return known;
  let result: ParsedBody = { ok: false };
  const text = e.responseBody;
  if (text !== undefined && text !== '') {
    try {
      result = { ok: true, value: JSON.parse(text) };
    } catch {
      // not JSON
    }
  }
  parsed.set(e, result);
  return result;
}
