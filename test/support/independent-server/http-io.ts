// Reading requests and writing answers. Bodies are read as JSON whatever their Content-Type: the
// spec says only "JSON is the payload format", so this server does not police media types.
import type { IncomingMessage, ServerResponse } from 'node:http';

const MAX_BODY = 64 * 1024;

export type BodyRead = { ok: true; text: string; value: unknown } | { ok: false; reason: string };

export async function readJsonBody(req: IncomingMessage): Promise<BodyRead> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return { ok: false, reason: 'the body is larger than 64 KiB' };
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return { ok: false, reason: 'a JSON body is required' };
  try {
    return { ok: true, text, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: 'the body is not valid JSON' };
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  mediaType = 'application/json',
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': `${mediaType}; charset=utf-8`,
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Query parameters of a request, each name with every value it was given. */
export function queryOf(url: URL): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of url.searchParams) out.set(k, [...(out.get(k) ?? []), v]);
  return out;
}
