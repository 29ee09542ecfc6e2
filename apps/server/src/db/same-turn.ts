import DataLoader from 'dataloader';

/**
 * How many loads one batched statement answers at most. A batch this full goes to the database at
 * once, before the turn of the event loop ends (see `sameTurnReads`; why 16: ADR 0017).
 */
const MAX_BATCH = 16;

/** A read shared by the requests that ask for it together. */
export interface SameTurnReads<K, V> {
  load(key: K): Promise<V>;
}

/**
 * A read that the requests asking in the same turn of the event loop share (issue 13, ADR 0017):
 * the loads made before the turn ends (`setImmediate`: after every connection with data was read)
 * go to one call of `load`, which answers them in order with one statement. Nothing is cached
 * between turns, and a lone request is a batch of one (nothing waits for a batch to fill). A failed
 * statement fails the loads of its batch, as it failed each of them alone.
 *
 * A batch that reaches `max` loads is sent at once, not at the end of the turn: under load a turn
 * reads every waiting connection, and one statement for all of them left the server idle while the
 * database answered it; sent in parts, the first part's answer is on its way while the server
 * still reads the rest.
 */
export function sameTurnReads<K, V>(
  load: (keys: readonly K[]) => Promise<V[]>,
  max = MAX_BATCH,
): SameTurnReads<K, V> {
  /** Sends the batch being filled (once, whichever comes first: full, or the end of the turn). */
  let send = () => {};
  let filled = 0;
  const loader = new DataLoader<K, V>(load, {
    cache: false,
    maxBatchSize: max,
    // Called as a batch is opened, by its first load.
    batchScheduleFn: (dispatch) => {
      let sent = false;
      send = () => {
        if (sent) return;
        sent = true;
        dispatch();
      };
      filled = 0;
      setImmediate(send);
    },
  });
  return {
    load(key) {
      const answer = loader.load(key);
      filled += 1;
      if (filled >= max) send();
      return answer;
    },
  };
}
