/**
 * A value loaded at most once per `ttlMs` and shared by every caller meanwhile (concurrent callers
 * share one load; a failed load is forgotten so the next call retries). For data that is the same
 * for everyone and changes rarely: landing creators, the ranking of suggested creators.
 */
export class CachedValue<T> {
  private current: { at: number; value: Promise<T> } | undefined;
  constructor(
    private readonly ttlMs: number,
    private readonly load: () => Promise<T>,
  ) {}

  get(): Promise<T> {
    const now = Date.now();
    if (!this.current || now - this.current.at > this.ttlMs) {
      const value = this.load();
      const entry = { at: now, value };
      this.current = entry;
      value.catch(() => {
        if (this.current === entry) this.current = undefined;
      });
    }
    return this.current.value;
  }

  /** The next call loads afresh. */
  clear(): void {
    this.current = undefined;
  }
}
