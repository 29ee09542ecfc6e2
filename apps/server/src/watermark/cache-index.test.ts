import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CacheIndex } from './cache-index.ts';

const dirs: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) await fs.promises.rm(d, { recursive: true, force: true });
});

async function cacheDir(): Promise<string> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'fv-cache-index-'));
  dirs.push(dir);
  return dir;
}

async function write(dir: string, media: string, name: string, bytes: number): Promise<string> {
  const file = path.join(dir, media, name);
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  await fs.promises.writeFile(file, Buffer.alloc(bytes));
  return file;
}

describe('the marked-copy cache index', () => {
  it('reads the directory once, then keeps a running total without scanning again', async () => {
    const dir = await cacheDir();
    await write(dir, 'm1', 'web-a.webp', 300);
    const readdir = vi.spyOn(fs.promises, 'readdir');
    const index = new CacheIndex(dir, 10_000);
    await index.added(await write(dir, 'm1', 'web-b.webp', 200), 200);
    expect(index.bytes).toBe(500);
    const scans = readdir.mock.calls.length;
    expect(scans).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) await index.added(await write(dir, `m${i + 2}`, 'thumb-a.webp', 100), 100);
    await index.touch(path.join(dir, 'm1', 'web-a.webp'));
    expect(index.bytes).toBe(1000);
    expect(readdir.mock.calls.length).toBe(scans);
  });

  it('evicts the least recently used copies down to 80% of the bound and forgets a removed file', async () => {
    const dir = await cacheDir();
    const index = new CacheIndex(dir, 1000);
    const files: string[] = [];
    for (let i = 0; i < 4; i++) {
      files.push(await write(dir, `m${i}`, 'web-a.webp', 250));
      await index.added(files[i]!, 250);
      await new Promise((r) => setTimeout(r, 5));
    }
    await index.touch(files[0]!); // the oldest is used again: it stays
    const fifth = await write(dir, 'm4', 'web-a.webp', 250);
    await index.added(fifth, 250);
    expect(index.bytes).toBe(750);
    expect(fs.existsSync(files[0]!)).toBe(true);
    expect(fs.existsSync(files[1]!)).toBe(false);
    expect(fs.existsSync(files[2]!)).toBe(false);
    expect(fs.existsSync(fifth)).toBe(true);
    await fs.promises.rm(path.join(dir, 'm4'), { recursive: true });
    await index.removedUnder(path.join(dir, 'm4'));
    expect(index.bytes).toBe(500);
  });
});
