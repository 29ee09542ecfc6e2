import type { Post, PostsQuery, PostsResponse } from '@fanverse/contract';
import { type InfiniteData, type QueryClient, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '../../app/api.ts';
import { onSocketEvent, watchPost } from '../../app/socket.ts';

export type FeedQuery = Omit<PostsQuery, 'page'>;

/** One feed of GET /posts: page 1 replaces, later pages append (spec §9), 12 posts a page. */
export function usePostsFeed(query: FeedQuery, enabled = true) {
  return useInfiniteQuery({
    queryKey: ['posts.list', query],
    queryFn: ({ pageParam, signal }) => api('posts.list', { ...query, page: pageParam }, { signal }),
    initialPageParam: 1,
    getNextPageParam: (last: PostsResponse) =>
      last.statistics.hasMore ? last.statistics.page + 1 : undefined,
    enabled,
  });
}

/** All posts of the loaded pages, without duplicates (a post may move between pages). */
export function feedPosts(data: InfiniteData<PostsResponse> | undefined): Post[] {
  const seen = new Set<string>();
  const posts: Post[] = [];
  for (const page of data?.pages ?? []) {
    for (const post of page.posts) {
      if (seen.has(post._id)) continue;
      seen.add(post._id);
      posts.push(post);
    }
  }
  return posts;
}

/** Updates one post wherever it is cached (after like, save, review, edit). */
export function patchCachedPost(client: QueryClient, id: string, patch: Partial<Post>): void {
  client.setQueriesData<InfiniteData<PostsResponse>>({ queryKey: ['posts.list'] }, (data) => {
    if (!data?.pages) return data;
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        posts: page.posts.map((post) => (post._id === id ? { ...post, ...patch } : post)),
      })),
    };
  });
}

/**
 * Keeps an open post live: joins its room and sets the comment count every cached copy shows
 * from each new comment's event (the server sends the count, so repeats are harmless).
 */
export function useLivePost(postId: string | undefined): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!postId) return;
    // Once in the room, the count is read again: a comment made before the join sent no event here.
    const leave = watchPost(postId, () => {
      api('posts.list', { post: postId }).then(
        (answer) => {
          const post = answer.posts.find((p) => p._id === postId);
          if (post) patchCachedPost(client, postId, { comments: post.comments });
        },
        () => undefined, // the count stays as it was; the next event sets it
      );
    });
    const off = onSocketEvent('comment', (payload) => {
      if (payload.postId === postId) patchCachedPost(client, postId, { comments: payload.comments });
    });
    return () => {
      off();
      leave();
    };
  }, [client, postId]);
}

/** Calls `onNear` when the sentinel comes within ~200 px of the viewport bottom (spec §9). */
export function useNearBottom(onNear: () => void, active: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const onNearRef = useRef(onNear);
  onNearRef.current = onNear;
  useEffect(() => {
    const node = ref.current;
    if (!node || !active || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onNearRef.current();
      },
      { rootMargin: '0px 0px 200px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [active]);
  return ref;
}
