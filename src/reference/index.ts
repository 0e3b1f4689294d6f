// The embedded reference server: the spec as a running program, with named faults. It stands
// alone: nothing here imports the suite (client, contract, checks, config, runner, schemas), so a
// mistake in one is not mirrored in the other.
import type { AddressInfo } from 'node:net';
import { createControl, type ReferenceControl } from './control.ts';
import { type Credentials, DEFAULT_CREDENTIALS, PINNED_ADDRESS } from './credentials.ts';
import { type ReferenceServerOptions, resolveOptions } from './options.ts';
import { createReferenceHttpServer } from './server.ts';
import { ServerState } from './state.ts';

export type { ReferenceControl } from './control.ts';
export { DEFAULT_CREDENTIALS, PINNED_ADDRESS } from './credentials.ts';
export { FAULTS, type FaultInfo } from './faults.ts';
export { FEATURES } from './features.ts';
export type { ChoiceName, Choices, RateLimit, ReferenceServerOptions } from './options.ts';
export { CHOICES, checkChoice, DEFAULT_RATE_LIMIT, RATE_LIMIT_SHAPES } from './options.ts';
export type { RequestCounts } from './request-counts.ts';

export interface RunningReferenceServer {
  apiBaseUrl: string; // http://127.0.0.1:PORT/api/
  petstoreBaseUrl: string; // http://127.0.0.1:PORT/petstore/v1
  controlUrl: string | undefined; // http://127.0.0.1:PORT/__control/ when control is on
  /** What the run configured: the demo credentials, and the address the pinned key is fixed to. */
  credentials: Credentials & { pinnedApiKeyAddress: string };
  control: ReferenceControl; // in-process, always available
  close(): Promise<void>;
}

function origin(address: AddressInfo): string {
  // A listener on every address (`::` dual-stack, `0.0.0.0`) is reached at the IPv4 loopback: its
  // links and printed addresses name a place a client can connect to.
  const unspecified = address.address === '::' || address.address === '0.0.0.0';
  const host = unspecified
    ? '127.0.0.1'
    : address.family === 'IPv6'
      ? `[${address.address}]`
      : address.address;
  return `http://${host}:${address.port}`;
}

export async function startReferenceServer(
  options: ReferenceServerOptions = {},
): Promise<RunningReferenceServer> {
  const resolved = resolveOptions(options);
  const state = new ServerState(resolved);
  const control = createControl(state);
  const server = createReferenceHttpServer(state, control);
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error & { code?: string }) => {
      reject(
        new Error(
          `reference server: cannot listen on ${resolved.host}:${resolved.port} (${error.code ?? error.message})`,
        ),
      );
    };
    server.once('error', onError);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const base = origin(server.address() as AddressInfo);
  state.origin = base;
  let closing: Promise<void> | undefined;
  return {
    apiBaseUrl: `${base}/api/`,
    petstoreBaseUrl: `${base}/petstore/v1`,
    controlUrl: resolved.control ? `${base}/__control/` : undefined,
    credentials: { ...DEFAULT_CREDENTIALS, pinnedApiKeyAddress: PINNED_ADDRESS },
    control,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections would otherwise hold close() open until they time out.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
