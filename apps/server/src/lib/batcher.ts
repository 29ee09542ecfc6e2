/**
 * Natural batching (as a database's group commit): calls made while earlier ones are still in
 * flight wait and then run together, as one batch. Alone, a call runs at once, with no delay; under
 * load, batches grow by themselves, so the cost paid per batch (a statement's round trip, its
 * commit) is shared. Each caller gets its own item's answer; a batch that fails is run again item
 * by item, so one bad item fails only its own caller.
 *
 * The work of a batch belongs to the requests waiting for it (each awaits its own answer, errors
 * included): it is not background work, and nothing is left running once they are answered.
 */
export class Batcher<I, O> {
  private readonly queue: { item: I; resolve(answer: O): void; reject(err: unknown): void }[] = [];
  private inFlight = 0;

  constructor(
    private readonly options: {
      /** Runs a batch: one answer per item, in the items' order. */
      run(items: I[]): Promise<O[]>;
      /** Most items in one batch. */
      maxBatch: number;
      /** Most batches running at once. */
      maxInFlight: number;
    },
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.start();
    });
  }

  private start(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.inFlight++;
      this.runBatch(batch).finally(() => {
        this.inFlight--;
        this.start();
      });
    }
  }

  /** Never rejects: every outcome goes to the batch's callers. */
  private async runBatch(batch: typeof this.queue): Promise<void> {
    try {
      const answers = await this.options.run(batch.map((b) => b.item));
      for (const [i, b] of batch.entries()) b.resolve(answers[i] as O);
    } catch (err) {
      if (batch.length === 1) {
        batch[0]?.reject(err);
        return;
      }
      // One after the other, as the batch would have run them.
      for (const b of batch) {
        await this.options.run([b.item]).then(
          ([answer]) => b.resolve(answer as O),
          (alone: unknown) => b.reject(alone),
        );
      }
    }
  }
}
