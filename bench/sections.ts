/**
 * docs/benchmarks.md is written by several benchmarks, each between its own pair of markers: a run
 * replaces its section and keeps everyone else's.
 */
import fs from 'node:fs';

export interface SectionMarkers {
  start: string;
  end: string;
}

/**
 * `text` with `body` between the markers: in place where the section already is, otherwise added
 * at the end (or, with `first`, right under the file's title).
 */
export function mergeSection(
  text: string,
  { start, end }: SectionMarkers,
  body: string,
  { first = false }: { first?: boolean } = {},
): string {
  const block = `${start}\n${body.trimEnd()}\n${end}\n`;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a >= 0 && b > a) return text.slice(0, a) + block + text.slice(b + end.length + 1);
  if (first) return text.replace(/^# Benchmarks\n\n?/, `# Benchmarks\n\n${block}`);
  return `${text.trimEnd()}\n\n${block}`;
}

/** Writes one section of `file` (created with its title if missing). */
export function writeSection(
  file: string,
  markers: SectionMarkers,
  body: string,
  options?: { first?: boolean },
): void {
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n\n';
  fs.writeFileSync(file, mergeSection(current, markers, body, options));
}
