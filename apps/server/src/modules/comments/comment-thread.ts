/** Replies are nested at most this deep; a reply to a deeper comment attaches at this depth. */
export const MAX_COMMENT_DEPTH = 3;

/** One comment of a thread: a top-level comment (no parent) or a reply under it (`rootId`). */
export interface ThreadComment {
  id: string;
  parentId: string | null;
  rootId: string | null;
  deep: number;
  createdAt: Date;
}

/** The new place of a remaining comment. */
export interface ThreadChange {
  id: string;
  parentId: string | null;
  rootId: string | null;
  deep: number;
}

/**
 * Re-threads one thread (a top-level comment and every reply with its `rootId`) once the comments
 * in `removed` are gone, so that nobody else's reply is left hanging:
 * - a reply whose parent is removed attaches to its nearest remaining ancestor;
 * - when the top-level comment itself is removed, its oldest remaining reply becomes the top-level
 *   comment of the thread and the other remaining replies move under it;
 * - `deep` is recomputed the way a new reply gets it (parent's depth + 1, at most MAX_COMMENT_DEPTH).
 * Answers only the comments whose parent, root or depth change. `parentId`/`rootId` carry no foreign
 * key, which is why the caller has to do this before deleting.
 */
export function rethread(thread: readonly ThreadComment[], removed: ReadonlySet<string>): ThreadChange[] {
  const byId = new Map(thread.map((c) => [c.id, c]));
  const remaining = thread
    .filter((c) => !removed.has(c.id))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  if (!remaining.length) return [];
  const oldRoot = thread.find((c) => c.parentId === null);
  const root = oldRoot && !removed.has(oldRoot.id) ? oldRoot : remaining[0]!;

  /** The nearest ancestor that stays; the thread's (new) top-level comment when none does. */
  const parentOf = (c: ThreadComment): string | null => {
    if (c.id === root.id) return null;
    const seen = new Set<string>();
    let p = c.parentId;
    while (p !== null && !seen.has(p)) {
      seen.add(p);
      const parent = byId.get(p);
      if (parent && !removed.has(p) && p !== c.id) return p;
      p = parent?.parentId ?? null;
    }
    return root.id;
  };

  const parents = new Map(remaining.map((c) => [c.id, parentOf(c)]));
  const depths = new Map<string, number>();
  const depthOf = (id: string, guard = 0): number => {
    const known = depths.get(id);
    if (known !== undefined) return known;
    const parent = parents.get(id) ?? null;
    const deep =
      parent === null || guard > remaining.length
        ? 0
        : Math.min(depthOf(parent, guard + 1) + 1, MAX_COMMENT_DEPTH);
    depths.set(id, deep);
    return deep;
  };

  const changes: ThreadChange[] = [];
  for (const c of remaining) {
    const parentId = parents.get(c.id) ?? null;
    const rootId = c.id === root.id ? null : root.id;
    const deep = depthOf(c.id);
    if (parentId !== c.parentId || rootId !== c.rootId || deep !== c.deep) {
      changes.push({ id: c.id, parentId, rootId, deep });
    }
  }
  return changes;
}
