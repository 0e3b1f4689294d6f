// The one JSON media-type rule, for both halves: application/json or any application/*+json
// (RFC 6839 suffix), parameters and case ignored. A loop, not a regular expression: the value is
// the target's text, so it must cost linear time whatever it holds.

/** True for `application/json` and `application/<anything>+json`, with or without parameters. */
export function isJsonMediaType(value: string | undefined): boolean {
  if (!value) return false;
  const semicolon = value.indexOf(';');
  const essence = (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  if (!essence.startsWith('application/')) return false;
  const subtype = essence.slice('application/'.length);
  return subtype === 'json' || (subtype.endsWith('+json') && subtype.length > '+json'.length);
}
