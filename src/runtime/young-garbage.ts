import v8 from 'node:v8';
import vm from 'node:vm';

/** How much may stream through between two collections of the young generation. */
const EVERY_BYTES = 8 * 1024 * 1024;

// A streamed file passes through as buffers whose memory lies outside V8's heap; V8 frees it only
// when it collects the young objects holding it, and it starts such a collection from how much outside
// memory has grown, not from how much of it is garbage: tens of MiB of spent chunks can wait for it.
// So the streams ask for a young-generation collection (a scavenge, about a millisecond) every 8 MiB.
// `gc` is not exposed without node's --expose-gc: the flag is set at the first need (not at start: a
// new context costs milliseconds), and the function taken from a new context.
let gc: ((options: { type: 'minor' }) => void) | undefined;
const exposedGc = () => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as (options: { type: 'minor' }) => void;
};

let streamed = 0;

/** Counts bytes that went through a stream, and collects the young generation every EVERY_BYTES of them. */
export function streamedBytes(count: number): void {
  streamed += count;
  if (streamed < EVERY_BYTES) return;
  streamed = 0;
  gc ??= exposedGc();
  gc({ type: 'minor' });
}
