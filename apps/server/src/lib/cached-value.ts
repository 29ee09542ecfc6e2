/** One load: when it started, its promise, and its value once it has come. */
interface Load<T> {
  at: number;
  value: Promise<T>;
  settled?: { value: T };
}

/**
 * A value loaded at most once per `ttlMs` and shared by every caller meanwhile (concurrent callers
 * share one load; a failed load is forgotten so the next call retries). For data that is the same
 * for everyone and changes rarely: landing creators, the ranking of suggested creators.
 */
export class CachedValue<T> {
  private current: Load<T> | undefined;
  constructor(
    private readonly ttlMs: number,
    private readonly load: () => Promise<T>,
  ) {}

  get(): Promise<T> {
    const now = Date.now();
    if (!this.current || now - this.current.at > this.ttlMs) {
      const value = this.load();
      const entry: Load<T> = { at: now, value };
      this.current = entry;
      value.then(
        (loaded) => {
          entry.settled = { value: loaded };
        },
        () => {
          if (this.current === entry) this.current = undefined;
        },
      );
    }
    return this.current.value;
  }

  /**
   * The value without waiting, when it is loaded and still fresh; undefined otherwise (then `get()`).
   * A hot path that finds it here skips the promises of `get()` (the start-up call, issue 13).
   */
  peek(): { value: T } | undefined {
    const current = this.current;
    if (!current?.settled || Date.now() - current.at > this.ttlMs) return undefined;
    return current.settled;
  }

  /** The next call loads afresh. */
  clear(): void {
    this.current = undefined;
  }
}
