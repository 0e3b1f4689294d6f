// An error answer, thrown by any handler and rendered once, as the error body, by the server.
export interface ApiErrorOptions {
  /** Several messages: the spec's `errors` field, used instead of message. */
  errors?: string[];
  /** false only for the crash a fault simulates; every real refusal is handled. */
  handled?: boolean;
  headers?: Record<string, string>;
  /** Answer with no body at all (a fault of the rate limiter). */
  bodyless?: boolean;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly options: ApiErrorOptions;

  constructor(status: number, code: string, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.options = options;
  }
}

export const badRequest = (message: string, errors?: string[]): ApiError =>
  new ApiError(400, 'VALIDATION_ERROR', message, errors ? { errors } : {});

/** The 500 a fault simulates: a crash on a client's input, unhandled. */
export const simulatedCrash = (): ApiError =>
  new ApiError(500, 'INTERNAL_ERROR', 'an internal error occurred', { handled: false });
