// Trailing slashes off, in linear time. `/\/+$/` is quadratic where a long run of slashes does not
// end the text (V8 tries the run from every slash): 5.4 s for one 60,000-slash path the target
// sent. One loop here, for every such text, ours or the target's. k6-safe.

export function trimTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end--;
  return text.slice(0, end);
}
