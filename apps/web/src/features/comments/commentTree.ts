import type { Comment } from '@fanverse/contract';

function contains(list: readonly Comment[], id: string): boolean {
  return list.some((c) => c._id === id || contains(c.replies, id));
}

/**
 * Adds a comment to a tree: a top-level one first (newest first), a reply at the end of its
 * parent's replies (oldest first). Already present: unchanged.
 */
export function insertComment(list: readonly Comment[], comment: Comment): Comment[] {
  if (contains(list, comment._id)) return [...list];
  if (!comment.parent) return [comment, ...list];
  let placed = false;
  const walk = (items: readonly Comment[]): Comment[] =>
    items.map((item) => {
      if (placed) return item;
      if (item._id === comment.parent) {
        placed = true;
        return { ...item, replies: [...item.replies, comment] };
      }
      return { ...item, replies: walk(item.replies) };
    });
  const next = walk(list);
  return placed ? next : [...list];
}
