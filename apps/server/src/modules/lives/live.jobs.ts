import type { JobRegistry } from '../../jobs/job.ts';
import { ANNOUNCE_LIVE, DROP_ENCODER, KEEP_REFERENCE, type LiveService } from './live.service.ts';
import type { LiveReferences } from './live-reference.ts';

export function registerLiveJobs(jobs: JobRegistry, lives: LiveService, references: LiveReferences): void {
  jobs.register(ANNOUNCE_LIVE, async ({ liveId }) => {
    await lives.announce(liveId);
  });
  jobs.register(DROP_ENCODER, async ({ liveId }) => {
    await lives.dropEncoder(liveId);
  });
  jobs.register(KEEP_REFERENCE, async ({ liveId }) => {
    await references.keep(liveId);
  });
}
