import { z } from 'zod';
import { defineJob, type JobRegistry } from '../../jobs/job.ts';
import type { MediaWatcher } from '../../media/media.jobs.ts';
import type { PostService } from './post.service.ts';

/** Publication of a scheduled post at its time (sent with startAfter = publishAt). */
export const PUBLISH_POST = defineJob(
  'posts.publish',
  z.object({ postId: z.string().uuid(), publishAt: z.string().datetime() }),
  { retryLimit: 5, retryDelay: 30 },
);

/** The posts module's background work on the backbone. */
export function registerPostJobs(deps: {
  jobs: JobRegistry;
  watchMedia: (watcher: MediaWatcher) => void;
  posts: PostService;
}): void {
  deps.watchMedia((file) => deps.posts.followMedia(file));
  deps.jobs.register(PUBLISH_POST, ({ postId, publishAt }) => deps.posts.publishScheduled(postId, publishAt));
}
