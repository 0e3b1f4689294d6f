// A recorded exchange as the recorder leaves it (the API key secret redacted): the fixture of the
// tests that turn exchanges into curl commands and "reproduce with" lines.
import type { RecordedExchange } from '../../src/client/index.ts';

export const apiKeyExchange: RecordedExchange = {
  method: 'GET',
  url: 'http://127.0.0.1:4010/api/v1/customers?page=2',
  requestHeaders: {
    'x-api-key-id': 'local-api-key',
    'x-api-key-secret': '[REDACTED]',
    'content-length': '0',
    accept: 'application/json',
  },
  status: 404,
  startedAt: '2026-01-05T10:00:01.000Z',
  durationMs: 3,
};
