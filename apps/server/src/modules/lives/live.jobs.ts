import type { JobRegistry } from '../../jobs/job.ts';
import { ANNOUNCE_LIVE, DROP_ENCODER, type LiveService } from './live.service.ts';

export function registerLiveJobs(jobs: JobRegistry, lives: LiveService): void {
  jobs.register(ANNOUNCE_LIVE, async ({ liveId }) => {
    await lives.announce(liveId);
  });
  jobs.register(DROP_ENCODER, async ({ liveId }) => {
    await lives.dropEncoder(liveId);
  });
}
