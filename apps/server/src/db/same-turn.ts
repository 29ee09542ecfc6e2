import DataLoader from 'dataloader';

/** How many requests' reads one batched statement answers at most. */
const MAX_BATCH = 64;

/**
 * A read that the requests asking in the same turn of the event loop share (issue 13, ADR 0017):
 * every load made before the turn ends (`setImmediate`: after every connection with data was read)
 * goes to one call of `load`, which answers them in order with one statement. Nothing is cached
 * between turns, and a lone request is a batch of one (nothing waits for a batch to fill). A failed
 * statement fails the loads of its batch, as it failed each of them alone.
 */
export function sameTurnReads<K, V>(load: (keys: readonly K[]) => Promise<V[]>): DataLoader<K, V> {
  return new DataLoader<K, V>(load, {
    cache: false,
    maxBatchSize: MAX_BATCH,
    batchScheduleFn: (run) => setImmediate(run),
  });
}
