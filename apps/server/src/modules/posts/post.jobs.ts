import type { JobRegistry } from '../../jobs/job.ts';
import type { MediaWatcher } from '../../media/media.jobs.ts';
import type { PostService } from './post.service.ts';

/** The posts module's background work on the backbone. */
export function registerPostJobs(deps: {
  jobs: JobRegistry;
  watchMedia: (watcher: MediaWatcher) => void;
  posts: PostService;
}): void {
  deps.watchMedia((file) => deps.posts.followMedia(file));
}
