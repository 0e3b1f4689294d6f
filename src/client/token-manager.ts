// The bearer token cache and its renewal. The spec: after SESSION_EXPIRED the client obtains a new
// token and repeats the request once; while one renewal runs, other failed requests wait for it.
// So renewal is single-flight, and a request whose token was already replaced just uses the new one.
import type { TokenManager } from './types.ts';

export function createTokenManager(fetchToken: () => Promise<string>): TokenManager {
  let current: string | undefined;
  let pending: Promise<string> | undefined;
  let requests = 0;

  const fetchNew = (): Promise<string> => {
    requests += 1;
    const flight = fetchToken().then(
      (token) => {
        current = token;
        return token;
      },
      (error: unknown) => {
        throw error;
      },
    );
    pending = flight;
    // Clear only our own flight, and whatever its outcome, so a failed renewal can be tried again.
    const clear = () => {
      if (pending === flight) pending = undefined;
    };
    flight.then(clear, clear);
    return flight;
  };

  return {
    getToken() {
      if (pending) return pending;
      if (current !== undefined) return Promise.resolve(current);
      return fetchNew();
    },
    renew(staleToken) {
      if (pending) return pending;
      if (current !== undefined && current !== staleToken) return Promise.resolve(current);
      current = undefined;
      return fetchNew();
    },
    useToken(token) {
      current = token;
    },
    get tokenRequests() {
      return requests;
    },
  };
}
