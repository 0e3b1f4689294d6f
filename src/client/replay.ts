// The request of an exchange as a person can send it again: its URL, headers and body as parts,
// each secret a named shell variable instead of its value. The recorder makes it from the request
// as it was sent (before any redaction), so a curl line is rendered from structured data and never
// made by editing redacted text.
import { secretForms } from '../../common/secret-filter.ts';
import { VARIABLES } from '../../common/variables.ts';
import { type TargetConfig, targetValues } from '../config/index.ts';

/** Text as it was sent, or a secret written as the variable that holds it. */
export type ReplayPart = string | { variable: string };

export interface ReplayRequest {
  method: string;
  url: ReplayPart[];
  /** In the order they were sent, lower-case names. */
  headers: [string, ReplayPart[]][];
  body?: ReplayPart[];
  /** The body's full length when the recorded body is cut (a command with it cannot be exact). */
  bodyCut?: number;
}

export interface NamedSecret {
  /** A shell variable name: the table's secret rows (CLIENT_SECRET, ...) or ACCESS_TOKEN. */
  variable: string;
  value: string;
}

/** Tokens the client obtains during a run: not configured, so no row of the table names them. */
export const ACCESS_TOKEN = 'ACCESS_TOKEN';
/** A secret given to a recorder without a name (named later by the client when it knows one). */
export const UNNAMED_SECRET = 'SECRET';

/** The configured secrets under their variables' names: the secret rows of the one table. */
export function namedSecrets(config: TargetConfig): NamedSecret[] {
  const values = targetValues(config);
  return VARIABLES.flatMap((v) => {
    const value = v.secret && v.key !== undefined ? values[v.key] : undefined;
    return typeof value === 'string' && value !== '' ? [{ variable: v.name, value }] : [];
  });
}

/** A secret's forms, longest first, each naming its variable (a longer secret wins over a shorter). */
export function formsOf(secrets: readonly NamedSecret[]): { form: string; variable: string }[] {
  return secrets
    .flatMap((s) => secretForms(s.value).map((form) => ({ form, variable: s.variable })))
    .sort((a, b) => b.form.length - a.form.length);
}

/**
 * Text split into literal parts and variables. Every written form of a secret (URL-, JSON-,
 * HTML-escaped) becomes its variable so the value never stays behind; the shell expands the raw
 * value, which is the same bytes whenever the secret holds no character those forms escape.
 */
export function partsOf(text: string, forms: readonly { form: string; variable: string }[]): ReplayPart[] {
  for (const { form, variable } of forms) {
    const at = form === '' ? -1 : text.indexOf(form);
    if (at >= 0) {
      return [
        ...partsOf(text.slice(0, at), forms),
        { variable },
        ...partsOf(text.slice(at + form.length), forms),
      ];
    }
  }
  return text === '' ? [] : [text];
}

/** What the recorder's filter hides, asked of it rather than known here (one secret filter). */
export interface Hiding {
  /** The text as the filter writes it, each hidden span as REDACTED. */
  text(value: string): string;
  /** Whether the filter hides this header's whole value by its name (a credential header). */
  credentialHeader(name: string): boolean;
  /** Whether the text holds a token a client of the run learned (never shown, even made up around). */
  learnedToken?(value: string): boolean;
}

/** Variables for values the filter hides that no configured variable holds (made up by a check). */
export const HIDDEN_PREFIX = 'HIDDEN_';
// The field name just before a hidden value (`"client_secret":"` or `access_token=`); matched on
// the last characters only, so a long text before it costs nothing.
const FIELD_BEFORE = /([A-Za-z0-9_-]{1,60})(?:"\s*:\s*"|=)$/;
const upperSnake = (name: string) => name.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();

/**
 * The spans of `original` that `redacted` hides: the literal pieces of `redacted` between its
 * REDACTED marks come back in order; what lies between them in the original is hidden. Found with
 * indexOf, not a regular expression (a request body may be megabytes long). Any split that fits is
 * safe: the literal pieces are what the redacted text shows anyway.
 */
function hiddenSpans(original: string, redacted: string, mark: string): (string | { hidden: string })[] {
  if (redacted === original) return original === '' ? [] : [original];
  const pieces = redacted.split(mark);
  const first = pieces[0] ?? '';
  if (!original.startsWith(first)) return [{ hidden: original }];
  const out: (string | { hidden: string })[] = first ? [first] : [];
  let at = first.length;
  for (let i = 1; i < pieces.length; i++) {
    const piece = pieces[i] ?? '';
    const isLast = i === pieces.length - 1;
    const found = isLast ? original.length - piece.length : original.indexOf(piece, at);
    if (found < at || (isLast && !original.endsWith(piece))) return [{ hidden: original }];
    // An empty span hides nothing (a field pattern met a value that is a variable already).
    if (found > at) out.push({ hidden: original.slice(at, found) });
    if (piece) out.push(piece);
    at = found + piece.length;
  }
  return out;
}

/**
 * Parts of one value: named secrets first (exact variables), then whatever else the filter hides
 * (a hand-made credential, a token field of any value) as a HIDDEN_ variable named for where it is.
 */
function valueParts(
  text: string,
  forms: readonly { form: string; variable: string }[],
  hiding: Hiding,
  mark: string,
  context: string | undefined,
  wholeHidden: boolean,
  generated: boolean,
  madeUp = false,
): ReplayPart[] {
  const out: ReplayPart[] = [];
  for (const part of partsOf(text, forms)) {
    if (typeof part !== 'string') {
      out.push(part);
      continue;
    }
    // A credential the check made up (a wrong secret, a malformed token) is sent as it was, unless
    // it holds a token the run learned: around a named secret, only the made-up rest is literal.
    if (wholeHidden && madeUp && hiding.learnedToken?.(part) === false) {
      out.push(part);
      continue;
    }
    // A credential header shows only its scheme next to a named secret; anything else is hidden.
    if (wholeHidden && !/^(?:Bearer|Basic) $/i.test(part)) {
      out.push({ variable: `${HIDDEN_PREFIX}${upperSnake(context ?? 'secret')}` });
      continue;
    }
    for (const piece of hiddenSpans(part, hiding.text(part), mark)) {
      if (typeof piece === 'string') {
        out.push(piece);
        continue;
      }
      // A generated request's value hidden only for its field's name (a client_secret the generator
      // drew) is no secret: kept, as a part of its own, so no later pass meets it beside its name.
      if (generated && hiding.text(piece.hidden) === piece.hidden) {
        out.push(piece.hidden);
        continue;
      }
      const before = out.at(-1);
      const field =
        context ?? (typeof before === 'string' ? FIELD_BEFORE.exec(before.slice(-100))?.[1] : undefined);
      out.push({ variable: `${HIDDEN_PREFIX}${upperSnake(field ?? 'secret')}` });
    }
  }
  return out;
}

/** The request of an exchange, as sent, with its secrets as variables and its body cut at `maxBody`. */
export function replayOf(
  sent: { method: string; url: string; headers: Record<string, string>; body?: string | undefined },
  secrets: readonly NamedSecret[],
  hiding: Hiding,
  mark: string,
  maxBody: number,
  generated = false,
  madeUp = false,
): ReplayRequest {
  const forms = formsOf(secrets);
  // A made-up request's secret fields (a wrong client_secret) are kept like a generated one's.
  generated ||= madeUp;
  const replay: ReplayRequest = {
    method: sent.method,
    url: valueParts(sent.url, forms, hiding, mark, undefined, false, generated),
    headers: Object.entries(sent.headers).map(([name, value]) => [
      name,
      valueParts(
        value,
        forms,
        hiding,
        mark,
        hiding.credentialHeader(name) ? name : undefined,
        hiding.credentialHeader(name),
        generated,
        madeUp,
      ),
    ]),
  };
  if (sent.body !== undefined) {
    const parts = valueParts(sent.body, forms, hiding, mark, undefined, false, generated);
    replay.body = sent.body.length <= maxBody ? parts : cutParts(parts, maxBody);
    if (sent.body.length > maxBody) replay.bodyCut = sent.body.length;
  }
  return replay;
}

/** The first `max` characters of the literal parts (variables kept whole). */
function cutParts(parts: readonly ReplayPart[], max: number): ReplayPart[] {
  const out: ReplayPart[] = [];
  let left = max;
  for (const part of parts) {
    if (left <= 0) break;
    if (typeof part !== 'string') out.push(part);
    else {
      out.push(part.slice(0, left));
      left -= part.length;
    }
  }
  return out;
}

/** The variables a replay needs, each once, in order of appearance. */
export function replayVariables(replay: ReplayRequest): string[] {
  const all = [replay.url, ...replay.headers.map(([, parts]) => parts), replay.body ?? []].flat();
  return [...new Set(all.flatMap((p) => (typeof p === 'string' ? [] : [p.variable])))];
}

/** Text for a report line with each secret written as `$VARIABLE` (never its value). */
export function withVariables(text: string, secrets: readonly NamedSecret[]): string {
  return partsOf(text, formsOf(secrets))
    .map((p) => (typeof p === 'string' ? p : `$${p.variable}`))
    .join('');
}
