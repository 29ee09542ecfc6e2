import { z } from 'zod';
import type { JobPayload, JobRegistry } from '../../jobs/job.ts';
import { defineJob } from '../../jobs/job.ts';
import type { MediaWatcher } from '../../media/media.jobs.ts';
import type { MessageService } from './message.service.ts';

/** Delivery of one mass message to the creator's subscribers, resumable after a crash. */
export const MASS_MESSAGE = defineJob(
  'messages.mass-send',
  z.object({
    massId: z.string().uuid(),
    creatorId: z.string().uuid(),
    messageUuid: z.string().min(1).max(200),
    text: z.string(),
    price: z.number().int().min(0),
    mediaIds: z.array(z.string().uuid()),
  }),
  { retryLimit: 5, retryDelay: 10, expireInSeconds: 15 * 60, unique: true },
);
export type MassMessageJob = JobPayload<typeof MASS_MESSAGE>;

/** The messages module's background work on the backbone. */
export function registerMessageJobs(deps: {
  jobs: JobRegistry;
  watchMedia: (watcher: MediaWatcher) => void;
  messages: MessageService;
}): void {
  deps.jobs.register(MASS_MESSAGE, (job) => deps.messages.deliverMass(job));
  deps.watchMedia((file) => deps.messages.followMedia(file));
}
