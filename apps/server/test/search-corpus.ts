import { randomBytes } from 'node:crypto';
import type { Db } from '../src/db/client.ts';
import { follows, profiles, users } from '../src/db/schema.ts';

/** A small seeded random generator (mulberry32): the same corpus and queries on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const ONSETS = [
  'b',
  'c',
  'd',
  'f',
  'g',
  'j',
  'k',
  'l',
  'm',
  'n',
  'p',
  'r',
  's',
  't',
  'v',
  'z',
  'br',
  'ch',
  'st',
  'tr',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ia', 'ea'];

/** A pronounceable name of two or three syllables (4+ letters). */
function name(rand: () => number): string {
  const syllables = 2 + Math.floor(rand() * 2);
  let out = '';
  for (let i = 0; i < syllables; i++) {
    out += ONSETS[Math.floor(rand() * ONSETS.length)] + (VOWELS[Math.floor(rand() * VOWELS.length)] ?? 'a');
  }
  if (rand() < 0.4) out += ['n', 'r', 's', 'l'][Math.floor(rand() * 4)];
  return out.length >= 4 ? out : `${out}la`;
}

const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

export interface CorpusCreator {
  username: string;
  displayName: string;
}

/**
 * `count` creators with unique first/last names from pools of 400 each and unique handles,
 * written in batches straight into the tables (the search triggers index them as for any write);
 * follower counts vary so popularity plays a part.
 */
export async function seedCreators(db: Db, count: number, seed = 7): Promise<CorpusCreator[]> {
  const rand = seeded(seed);
  const firsts = new Set<string>();
  const lasts = new Set<string>();
  while (firsts.size < 400) firsts.add(name(rand));
  while (lasts.size < 400) lasts.add(name(rand));
  const F = [...firsts];
  const L = [...lasts];
  const pairs = new Set<string>();
  const out: CorpusCreator[] = [];
  while (out.length < count) {
    const f = F[Math.floor(rand() * F.length)] ?? 'luna';
    const l = L[Math.floor(rand() * L.length)] ?? 'rivera';
    if (pairs.has(`${f} ${l}`)) continue;
    pairs.add(`${f} ${l}`);
    out.push({ username: `${f}_${l}${out.length}`.slice(0, 30), displayName: `${cap(f)} ${cap(l)}` });
  }
  const ids: string[] = [];
  for (let i = 0; i < out.length; i += 500) {
    const batch = out.slice(i, i + 500);
    const rows = await db
      .insert(users)
      .values(
        batch.map((c) => ({
          username: c.username,
          email: `${c.username}@corpus.example`,
          name: c.displayName,
          passwordHash: 'x',
          roles: ['user', 'creator'] as ('user' | 'creator')[],
          verified: true,
          referralCode: randomBytes(6).toString('hex'),
        })),
      )
      .returning({ id: users.id });
    await db
      .insert(profiles)
      .values(rows.map((r, j) => ({ userId: r.id, displayName: batch[j]?.displayName })));
    ids.push(...rows.map((r) => r.id));
  }
  // A few fans following a varying number of creators: popularity differs between them.
  const fans = await db
    .insert(users)
    .values(
      Array.from({ length: 20 }, (_, k) => ({
        username: `corpusfan${seed}_${k}`,
        email: `corpusfan${seed}_${k}@corpus.example`,
        name: 'Fan',
        passwordHash: 'x',
        referralCode: randomBytes(6).toString('hex'),
      })),
    )
    .returning({ id: users.id });
  const edges: { followerId: string; creatorId: string }[] = [];
  for (const [k, fan] of fans.entries()) {
    for (let i = k; i < ids.length; i += 3 + k) edges.push({ followerId: fan.id, creatorId: ids[i] ?? '' });
  }
  for (let i = 0; i < edges.length; i += 1000) await db.insert(follows).values(edges.slice(i, i + 1000));
  return out;
}

/** One typo of the kinds people make: two neighbours swapped, a letter dropped, a letter doubled. */
export function misspell(word: string, rand: () => number): string {
  const kind = Math.floor(rand() * 3);
  const i = 1 + Math.floor(rand() * (word.length - 2));
  if (kind === 0) return word.slice(0, i) + word.charAt(i + 1) + word.charAt(i) + word.slice(i + 2);
  if (kind === 1) return word.slice(0, i) + word.slice(i + 1);
  return word.slice(0, i) + word.charAt(i) + word.slice(i);
}

/** A misspelled query for a creator: their full name with one word misspelled, or their first name and a misspelled surname. */
export function misspelledQuery(c: CorpusCreator, rand: () => number): string {
  const [first = '', last = ''] = c.displayName.toLowerCase().split(' ');
  return rand() < 0.5 ? `${misspell(first, rand)} ${last}` : `${first} ${misspell(last, rand)}`;
}
