/** One tile of the seek thumbnail strip: from `start` to `end` seconds, a region of the sprite. */
export interface SeekTile {
  start: number;
  end: number;
  url: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

const TIME = /^(?:(\d+):)?(\d{1,2}):(\d{2}(?:\.\d{1,3})?)$/;

function seconds(text: string): number | null {
  const m = TIME.exec(text.trim());
  if (!m) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

/**
 * The tiles of a thumbnails WebVTT (`media.play`'s `thumbnails`: cues whose text is
 * `spriteUrl#xywh=x,y,w,h`, the form players read for seek previews). Malformed cues are skipped.
 */
export function parseSeekThumbnails(vtt: string | null | undefined): SeekTile[] {
  if (!vtt) return [];
  const tiles: SeekTile[] = [];
  const lines = vtt.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!line.includes('-->')) continue;
    const [a = '', b = ''] = line.split('-->');
    const start = seconds(a);
    const end = seconds(b.trim().split(/\s+/)[0] ?? '');
    const text = (lines[i + 1] ?? '').trim();
    const m = /^(.*)#xywh=(\d+),(\d+),(\d+),(\d+)$/.exec(text);
    if (start === null || end === null || !m) continue;
    tiles.push({
      start,
      end,
      url: m[1] ?? '',
      x: Number(m[2]),
      y: Number(m[3]),
      w: Number(m[4]),
      h: Number(m[5]),
    });
  }
  return tiles;
}

/** The tile shown for time `t` (the last one past the end). */
export function tileAt(tiles: readonly SeekTile[], t: number): SeekTile | null {
  if (tiles.length === 0) return null;
  return tiles.find((tile) => t >= tile.start && t < tile.end) ?? (tiles[tiles.length - 1] as SeekTile);
}

/** `m:ss` or `h:mm:ss`. */
export function clock(t: number): string {
  const s = Math.max(0, Math.floor(t));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}
