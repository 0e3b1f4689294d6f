// A body the target declares JSON, judged as the bytes it came as (RFC 8259 §8.1): UTF-8, no byte
// order mark, JSON that parses, as long as its Content-Length says; and (§4, a recommendation) no
// object holding one key twice with different values. The text the other checks read hides most of
// this (a byte that is not UTF-8 reads as U+FFFD, JSON.parse keeps the last of two keys), so the
// transport keeps the byte facts beside it (src/client/transport.ts). Pure; the invariants
// (INV-JSON-BYTES, INV-JSON-KEYS) and the generated requests' evidence both ask it.
import { isJsonMediaType } from '../../common/media-type.ts';
import { changedDuplicates } from '../client/exact-json.ts';
import { type RecordedExchange, wasCut } from '../client/index.ts';
import { parsedBody } from './parsed-body.ts';

type Judged = Pick<
  RecordedExchange,
  'method' | 'status' | 'responseHeaders' | 'responseBody' | 'responseBytes' | 'responseNotUtf8At'
>;

/** The body an answer declares JSON, when it has one (undefined: not governed). */
function declaredJson(e: Judged): { text: string; whole: boolean } | undefined {
  if (e.status === undefined || e.method.toUpperCase() === 'HEAD') return undefined;
  if (e.status === 204 || e.status === 304) return undefined;
  const headers = e.responseHeaders ?? {};
  if (!isJsonMediaType(headers['content-type'])) return undefined;
  // A compressed body is other bytes than the JSON text (the suite asks for none).
  const encoding = headers['content-encoding']?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') return undefined;
  const text = e.responseBody ?? '';
  if (text === '' && !e.responseBytes) return undefined;
  return { text, whole: !wasCut(text) };
}

/** Why a body declared JSON is not a JSON text as sent: '' when it is, undefined when there is none. */
export function jsonBytesProblem(e: Judged): string | undefined {
  const body = declaredJson(e);
  if (!body) return undefined;
  if (e.responseNotUtf8At !== undefined) {
    return `the body is not UTF-8 (byte ${e.responseNotUtf8At} starts no UTF-8 sequence)`;
  }
  if (body.text.startsWith('\uFEFF')) return 'the body starts with a byte order mark (EF BB BF)';
  const headers = e.responseHeaders ?? {};
  const declared = headers['content-length'];
  // A chunked answer has no length to keep; a length that is no number is the transport's to refuse.
  if (
    declared !== undefined &&
    headers['transfer-encoding'] === undefined &&
    /^\d+$/.test(declared.trim()) &&
    e.responseBytes !== undefined &&
    Number(declared) !== e.responseBytes
  ) {
    return `Content-Length ${declared.trim()}, but ${e.responseBytes} bytes came`;
  }
  if (!body.whole) return '';
  return parsedBody(e).ok ? '' : 'the body is not JSON';
}

const shown = (value: unknown) => {
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? '';
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
};

/** A key one object of a JSON body holds twice with different values: '' when none does. */
export function jsonKeysProblem(e: Judged): string | undefined {
  const body = declaredJson(e);
  if (!body?.whole) return undefined;
  const parsed = parsedBody(e);
  const [first, ...more] = parsed.ok ? changedDuplicates(body.text, parsed.value) : [];
  if (!first) return '';
  const others = more.length ? ` (and ${more.length} more)` : '';
  return `key ${JSON.stringify(first.key)} appears twice with different values: ${shown(first.first)}, then ${shown(first.last)}${others}`;
}
