// The API client: undici transport, both auth schemes, token renewal, 429 retries, recorded exchanges.

export { createSecretFilter, REDACTED, type SecretFilter } from '../../common/secret-filter.ts';
export { type ClientOptions, createApiClient } from './api-client.ts';
export { curlOf, curlVariables } from './curl.ts';
export {
  firstLine,
  TokenError,
  TransportError,
  type TransportErrorKind,
  unreachableReason,
} from './errors.ts';
export { compose, type Interceptor, type Send, type SendOptions } from './interceptors.ts';
export { asksForToken, leaksOf } from './leaks.ts';
export { buildOutgoing, type OutgoingRequest, type OutgoingTarget } from './outgoing.ts';
export {
  answered,
  type Probe,
  petsAskForCredentials,
  petsBaseWrong,
  probe,
  probePetstore,
} from './probe.ts';
export { createRecorder, cutBody, MAX_RECORDED_BODY, wasCut } from './recorder.ts';
export {
  ACCESS_TOKEN,
  type NamedSecret,
  namedSecrets,
  type ReplayPart,
  type ReplayRequest,
  replayOf,
  withVariables,
} from './replay.ts';
export { DEFAULT_RETRY_POLICY, parseRetryAfter } from './retry.ts';
export { isSessionExpired, SESSION_EXPIRED } from './session.ts';
export { DEFAULT_MAX_BODY_BYTES } from './transport.ts';
export type {
  ApiClient,
  ApiRequest,
  ApiResponse,
  ExchangeRecorder,
  HttpMethod,
  RecordedExchange,
  RetryPolicy,
  TokenManager,
} from './types.ts';
