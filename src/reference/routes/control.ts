// The control API over HTTP, under /__control/ and only when the server was started with control
// on. Thin: each route validates its JSON body and calls the in-process control.
import { ApiError, badRequest } from '../api-error.ts';
import type { Handler } from '../context.ts';
import type { ReferenceControl } from '../control.ts';
import { isObject, readJsonBody } from '../request-body.ts';

export interface ControlRoute {
  method: string;
  template: string;
  handler: Handler;
}

async function objectBody(req: Parameters<typeof readJsonBody>[0]): Promise<Record<string, unknown>> {
  const body = await readJsonBody(req, { optional: true });
  if (body === undefined) return {};
  if (!isObject(body)) throw badRequest('the body must be a JSON object');
  return body;
}

// The in-process control throws plain Errors for bad values: over HTTP they are 400s.
function attempt<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw badRequest((error as Error).message);
  }
}

const ok = (json: unknown = { ok: true }) => ({ status: 200, json });

export function controlRoutes(control: ReferenceControl): ControlRoute[] {
  const route = (method: string, path: string, handler: Handler): ControlRoute => ({
    method,
    template: `/__control/${path}`,
    handler,
  });
  return [
    route('GET', '', () =>
      ok({
        routes: controlRoutes(control).map((r) => `${r.method} ${r.template}`),
        now: control.now().toISOString(),
        faults: control.faults(),
      }),
    ),
    // The address this server sees the caller's requests come from: a key pinned to it must work.
    route('GET', 'caller', (ctx) => ok({ address: ctx.address })),
    route('POST', 'clock/advance', async (ctx) => {
      const { seconds } = await objectBody(ctx.req);
      if (typeof seconds !== 'number') throw badRequest('seconds must be a number >= 0');
      attempt(() => control.advanceClock(seconds));
      return ok({ now: control.now().toISOString() });
    }),
    route('PUT', 'features/{name}', async (ctx) => {
      const { enabled } = await objectBody(ctx.req);
      if (typeof enabled !== 'boolean') throw badRequest('enabled must be true or false');
      const name = ctx.params.name ?? '';
      try {
        control.setFeature(name, enabled);
      } catch (error) {
        throw new ApiError(404, 'NOT_FOUND', (error as Error).message);
      }
      return ok({ name, enabled });
    }),
    route('POST', 'sessions/expire', async (ctx) => {
      const { access_token: token } = await objectBody(ctx.req);
      if (token !== undefined && typeof token !== 'string') throw badRequest('access_token must be a string');
      return ok({ expired: control.expireSessions(token) });
    }),
    route('PUT', 'token-ttl', async (ctx) => {
      const { seconds } = await objectBody(ctx.req);
      if (typeof seconds !== 'number') throw badRequest('seconds must be an integer >= 0');
      attempt(() => control.setTokenTtl(seconds));
      return ok({ seconds });
    }),
    route('PUT', 'rate-limit', async (ctx) => {
      const { limit, windowSeconds } = await objectBody(ctx.req);
      if (limit !== null && typeof limit !== 'number') throw badRequest('limit must be a number or null');
      if (windowSeconds !== undefined && typeof windowSeconds !== 'number') {
        throw badRequest('windowSeconds must be a number');
      }
      attempt(() => control.setRateLimit(limit, windowSeconds));
      return ok({ limit, windowSeconds });
    }),
    route('POST', 'api-keys', async (ctx) => {
      const { rateLimit, pinnedAddress } = await objectBody(ctx.req);
      if (rateLimit !== undefined && !isObject(rateLimit)) {
        throw badRequest('rateLimit must be {"limit": n, "windowSeconds": s}');
      }
      if (pinnedAddress !== undefined && typeof pinnedAddress !== 'string') {
        throw badRequest('pinnedAddress must be a string');
      }
      const key = attempt(() =>
        control.createApiKey({
          ...(rateLimit
            ? {
                rateLimit: {
                  limit: rateLimit.limit as number,
                  windowSeconds: rateLimit.windowSeconds as number,
                },
              }
            : {}),
          ...(pinnedAddress ? { pinnedAddress } : {}),
        }),
      );
      return { status: 201, json: key };
    }),
    route('PUT', 'faults', async (ctx) => {
      const { faults } = await objectBody(ctx.req);
      if (!Array.isArray(faults) || !faults.every((f) => typeof f === 'string')) {
        throw badRequest('faults must be an array of fault names');
      }
      attempt(() => control.setFaults(faults));
      return ok({ faults });
    }),
    route('GET', 'requests', () => ok(control.requestCounts())),
    route('DELETE', 'requests', () => {
      control.resetCounts();
      return ok();
    }),
    route('POST', 'reset', () => {
      control.reset();
      return ok();
    }),
  ];
}
