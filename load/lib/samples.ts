// A failed load finding's evidence: one exchange it is about (the request's method and route, the
// answer's status, headers and body cut). The flag-cache pollers and the release users meet these
// answers in their own virtual users, and k6 hands handleSummary only metrics and checks: so a VU
// records its first sample of a kind as a passing check whose name carries it (load/lib/k6/sample.ts),
// and the summary reads it back from the checks and leaves it out of the report's checks. Pure.
import { createSecretFilter } from '../../common/secret-filter.ts';
import type { K6Check } from './summary/k6-data.ts';

export interface Sample {
  /** Why it is the sample: "changed 12.0 s after the previous renewal", "HTTP 503 where 2xx was expected". */
  why: string;
  /** The request as the report names it: method and route, never its headers (a bearer token). */
  request?: string;
  status: number;
  headers: Record<string, string>;
  /** Cut; absent when the script did not read it (most answers' bodies are discarded). */
  body?: string;
}

export const SAMPLE_CHECK_PREFIX = 'sample exchange ';
const SAMPLE_BODY = 1000;
const SAMPLE_HEADER = 500;
const SAMPLE_HEADERS = 30;

/** An answer as a sample: headers and body cut, so a check name stays a few KiB at most. */
export function sampleOf(
  answer: { status: number; headers: Record<string, string | undefined> },
  body: string | null | undefined,
  why: string,
  request?: string,
): Sample {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers).slice(0, SAMPLE_HEADERS)) {
    if (value !== undefined) headers[name] = String(value).slice(0, SAMPLE_HEADER);
  }
  return {
    why,
    ...(request ? { request } : {}),
    status: answer.status,
    headers,
    ...(typeof body === 'string' ? { body: body.slice(0, SAMPLE_BODY) } : {}),
  };
}

/** The sample with every secret gone: these values, credential headers by name, token fields by name. */
export function cleanSample(s: Sample, secrets: readonly string[]): Sample {
  const filter = createSecretFilter(secrets);
  return {
    ...s,
    why: filter.text(s.why),
    ...(s.request === undefined ? {} : { request: filter.text(s.request) }),
    headers: filter.headers(s.headers),
    ...(s.body === undefined ? {} : { body: filter.text(s.body) }),
  };
}

/** The check name that carries a sample of `kind` ("violation", "errors:customers"). */
export function sampleCheckName(kind: string, sample: Sample): string {
  return `${SAMPLE_CHECK_PREFIX}${JSON.stringify({ kind, sample })}`;
}

export function isSampleCheck(name: string): boolean {
  return name.startsWith(SAMPLE_CHECK_PREFIX);
}

function parsed(name: string): { kind: string; sample: Sample } | undefined {
  try {
    const v = JSON.parse(name.slice(SAMPLE_CHECK_PREFIX.length)) as {
      kind?: unknown;
      sample?: Partial<Sample>;
    };
    const s = v.sample;
    if (typeof v.kind !== 'string' || !s || typeof s.why !== 'string' || typeof s.status !== 'number')
      return undefined;
    const headers: Record<string, string> = {};
    for (const [n, h] of Object.entries(s.headers ?? {})) if (typeof h === 'string') headers[n] = h;
    return {
      kind: v.kind,
      sample: {
        why: s.why,
        ...(typeof s.request === 'string' ? { request: s.request } : {}),
        status: s.status,
        headers,
        ...(typeof s.body === 'string' ? { body: s.body } : {}),
      },
    };
  } catch {
    return undefined;
  }
}

/** The samples the run's checks carry, the first of each kind (by name: k6 keeps no order across VUs). */
export function samplesOf(checks: readonly Pick<K6Check, 'name'>[]): Map<string, Sample> {
  const found = new Map<string, Sample>();
  const names = checks
    .map((c) => c.name)
    .filter(isSampleCheck)
    .sort();
  for (const name of names) {
    const p = parsed(name);
    if (p && !found.has(p.kind)) found.set(p.kind, p.sample);
  }
  return found;
}
