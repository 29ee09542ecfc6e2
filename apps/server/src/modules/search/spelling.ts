/**
 * Spelling helpers of the search (ADR 0024): the words of a text, their one-letter deletions (the
 * same rule as the database's `fv_search_variants`, migration 0016) and the optimal-string-alignment
 * distance (Damerau-Levenshtein without repeated edits of one substring) used to rank candidates.
 */

/** Lower-case words of a text: spaces, punctuation and symbols separate (as in migration 0016). */
export function searchWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[\s\p{P}\p{S}]+/u)
    .filter((w) => w.length > 0);
}

/**
 * The words a person is found by (the `term`s of `search_terms`, the same rule as migration 0016's
 * `fv_refresh_search_terms`): the words of the handle, the handle with its separators removed and
 * the display name (else the name), at most 40 letters each. Ranking computes them from the row
 * instead of reading every index row of each candidate back.
 */
export function personTerms(username: string, displayName: string | null, name: string): string[] {
  const handle = username.replace(/[\s\p{P}\p{S}]+/gu, '');
  const words = searchWords(`${username} ${handle} ${displayName || name}`);
  return [...new Set(words.filter((w) => w.length <= 40))];
}

/** Shortest word whose one-letter deletions are indexed (shorter ones only match exactly or by prefix). */
export const MIN_VARIANT_LENGTH = 4;

/** The word and, from MIN_VARIANT_LENGTH letters on, each word with one letter deleted. */
export function deletionVariants(word: string): string[] {
  const out = new Set([word]);
  const letters = [...word];
  if (letters.length >= MIN_VARIANT_LENGTH) {
    for (let i = 0; i < letters.length; i++)
      out.add([...letters.slice(0, i), ...letters.slice(i + 1)].join(''));
  }
  return [...out];
}

/**
 * Edits (insert, delete, substitute, swap two neighbours) between two words; stops counting past
 * `max` and answers max + 1 then.
 */
export function editDistance(a: string, b: string, max = 3): number {
  const s = [...a];
  const t = [...b];
  if (Math.abs(s.length - t.length) > max) return max + 1;
  // Three rows of the table: two rows back (for swaps), the previous one, the current one.
  let prev2 = new Array<number>(t.length + 1).fill(0);
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        d = Math.min(d, (prev2[j - 2] ?? 0) + 1);
      cur.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return Math.min(prev[t.length] ?? 0, max + 1);
}

/**
 * How well one typed word matches one indexed word, 0..1: equal 1, a prefix of it (typing) 0.9,
 * one edit 0.8, one edit in the prefix typed so far 0.7, two edits in a long word 0.6.
 */
export function wordScore(typed: string, word: string): number {
  if (typed === word) return 1;
  if (word.startsWith(typed)) return typed.length >= 2 ? 0.9 : 0.5;
  const len = [...typed].length;
  if (len < 3) return 0;
  const d = editDistance(typed, word, 2);
  if (d === 1) return 0.8;
  if (len >= MIN_VARIANT_LENGTH && editDistance(typed, [...word].slice(0, len).join(''), 1) === 1) return 0.7;
  if (d === 2 && len >= 6) return 0.6;
  return 0;
}

/** A person found by the spelling index: their indexed words, description and followers. */
export interface SearchCandidate {
  terms: readonly string[];
  about: string | null;
  followers: number;
}

/** Below this a candidate is noise (a shared trigram, a word of the description only half typed). */
export const MIN_RELEVANCE = 0.45;

/**
 * Relevance of a candidate to the typed words, 0..1: the mean over typed words of the best
 * match among the person's words (a word only in the description counts 0.5).
 */
export function relevance(words: readonly string[], candidate: SearchCandidate): number {
  if (!words.length) return 0;
  const about = candidate.about?.toLowerCase() ?? '';
  let sum = 0;
  for (const w of words) {
    let best = 0;
    for (const term of candidate.terms) {
      best = Math.max(best, wordScore(w, term));
      if (best === 1) break;
    }
    if (best < 0.5 && w.length >= 3 && about.includes(w)) best = 0.5;
    sum += best;
  }
  return sum / words.length;
}

/**
 * Ranks candidates: relevance first, then popularity (followers, on a log scale that can lift a
 * candidate over one a little more relevant but never over a clearly better match).
 */
export function rankCandidates<T extends SearchCandidate>(
  words: readonly string[],
  candidates: readonly T[],
): T[] {
  return candidates
    .map((c) => ({ c, r: relevance(words, c) }))
    .filter((x) => x.r >= MIN_RELEVANCE)
    .map((x) => ({ c: x.c, score: x.r + 0.02 * Math.log10(1 + x.c.followers) }))
    .sort((a, b) => b.score - a.score)
    .map((x) => x.c);
}

/** A typed word inside a LIKE pattern: its own %, _ and \\ match themselves. */
export const escapeLike = (w: string): string => w.replace(/[\\%_]/g, (c) => `\\${c}`);
