import fs from 'node:fs';
import path from 'node:path';

interface Entry {
  size: number;
  /** Last use (ms). */
  used: number;
}

/**
 * What the marked-copy cache holds, kept in memory: each file's size and last use, and their
 * running total. The directory is read once (the first time the cache is used); after that every
 * write, hit, removal and eviction updates the index instead of scanning again (ADR 0026).
 */
export class CacheIndex {
  private entries: Map<string, Entry> | null = null;
  private loading: Promise<Map<string, Entry>> | null = null;
  private total = 0;

  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  /** The running total in bytes (after the first use). */
  get bytes(): number {
    return this.total;
  }

  /** A cached copy was served: it becomes the most recently used. */
  async touch(file: string): Promise<void> {
    const entries = await this.load();
    const entry = entries.get(file);
    if (entry) entry.used = Date.now();
  }

  /** A copy was written; evicts the least recently used down to 80% when over the bound. */
  async added(file: string, size: number): Promise<void> {
    const entries = await this.load();
    this.total -= entries.get(file)?.size ?? 0;
    entries.set(file, { size, used: Date.now() });
    this.total += size;
    if (this.total <= this.maxBytes) return;
    const oldest = [...entries].sort((a, b) => a[1].used - b[1].used);
    for (const [name, e] of oldest) {
      if (this.total <= this.maxBytes * 0.8) break;
      await fs.promises.rm(name, { force: true });
      entries.delete(name);
      this.total -= e.size;
    }
  }

  /** Every copy under a directory (one media file's) was removed. */
  async removedUnder(dir: string): Promise<void> {
    const entries = await this.load();
    const prefix = `${dir}${path.sep}`;
    for (const [name, e] of entries) {
      if (!name.startsWith(prefix)) continue;
      entries.delete(name);
      this.total -= e.size;
    }
  }

  private load(): Promise<Map<string, Entry>> {
    if (this.entries) return Promise.resolve(this.entries);
    this.loading ??= this.scan().then((entries) => {
      this.entries = entries;
      this.total = [...entries.values()].reduce((s, e) => s + e.size, 0);
      return entries;
    });
    return this.loading;
  }

  private async scan(): Promise<Map<string, Entry>> {
    const out = new Map<string, Entry>();
    for (const d of await fs.promises.readdir(this.dir).catch(() => [] as string[])) {
      const sub = path.join(this.dir, d);
      for (const name of await fs.promises.readdir(sub).catch(() => [] as string[])) {
        const file = path.join(sub, name);
        const st = await fs.promises.stat(file).catch(() => null);
        if (st?.isFile() && !name.endsWith('.tmp')) out.set(file, { size: st.size, used: st.mtimeMs });
      }
    }
    return out;
  }
}
