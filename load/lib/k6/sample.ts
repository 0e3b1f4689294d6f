// Records a failed finding's sample from inside a virtual user: the first of each kind per VU, as a
// passing check whose name carries it (load/lib/samples.ts says why). Secrets go before it is
// recorded: the configured ones, the VU's token, credential headers by name.
import { check } from 'k6';
import { cleanSample, type Sample, sampleCheckName } from '../samples.ts';

const recorded = new Set<string>();

export function recordSample(kind: string, sample: () => Sample, secrets: () => readonly string[]): void {
  if (recorded.has(kind)) return;
  recorded.add(kind);
  check(null, { [sampleCheckName(kind, cleanSample(sample(), secrets()))]: () => true });
}
