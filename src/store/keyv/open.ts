import Keyv, { type KeyvStoreAdapter } from 'keyv';
import { StoreMisuseError } from '../errors';

/**
 * A keyv whose failures are errors, never silent misses (keyv's default is to swallow an adapter's
 * errors and answer "not found"): the repositories must not take "Redis is down" for "no such record".
 */
export function openKeyv(adapter: KeyvStoreAdapter, namespace: string): Keyv {
  const keyv = new Keyv({ store: adapter, namespace, throwOnErrors: true });
  keyv.on('error', () => {
    // Errors reach the caller through the rejected operation; this listener keeps them from
    // becoming unhandled 'error' events that would end the process.
  });
  return keyv;
}

/** The records of a keyv namespace whose keys begin with `prefix`: the rest of the key, and the value. */
export async function* prefixedRecords(keyv: Keyv, prefix: string): AsyncGenerator<{ id: string; value: unknown }> {
  if (!keyv.iterator) throw new StoreMisuseError('This store cannot list keys');
  for await (const [key, value] of keyv.iterator(undefined)) {
    const text = String(key);
    if (text.startsWith(prefix)) yield { id: text.slice(prefix.length), value: value as unknown };
  }
}
