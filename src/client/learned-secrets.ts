// Secrets the run learns on the way (the tokens the target issues), known to every recorder of the
// process and to the reporter: a target may echo to one check the token it issued to another, in
// another worker thread. Each learned secret is posted on a BroadcastChannel, which reaches every
// thread of this process (vitest's thread workers and the main thread, where the reporter runs).
// Nothing is written anywhere: the values live only in memory.
import { BroadcastChannel } from 'node:worker_threads';
import { createSecretFilter, MIN_LEARNED, type SecretFilter } from '../../common/secret-filter.ts';

const CHANNEL = 'payments-crm-conformance:learned-secrets';

const filter = createSecretFilter([]);
const values = new Set<string>();
let channel: BroadcastChannel | undefined;

/** Learns a secret here; false when it is too short to be one or already known. */
const remember = (secret: string): boolean => {
  if (secret.trim().length < MIN_LEARNED || values.has(secret)) return false;
  values.add(secret);
  filter.add(secret);
  return true;
};

function listen(): BroadcastChannel {
  if (!channel) {
    channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (event) => {
      const data = (event as MessageEvent).data;
      if (typeof data === 'string') remember(data);
    };
    // Listening never keeps a process alive.
    channel.unref();
  }
  return channel;
}

/** The filter of every secret learned in this process so far (and, as they arrive, in its other threads). */
export function learnedSecrets(): SecretFilter {
  listen();
  return filter;
}

/** The values themselves, for a filter made later (the reporter's). */
export function learnedValues(): string[] {
  listen();
  return [...values];
}

/** A secret learned here: known at once in this thread, posted to the others. */
export function shareLearned(secret: string): void {
  if (remember(secret)) listen().postMessage(secret);
}

// Listening from the moment this module loads: a message posted before a thread listens is lost to it.
listen();
