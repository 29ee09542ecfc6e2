import { z } from 'zod';
import { defineJob, type JobRegistry } from '../../jobs/job.ts';
import type { DeviceService } from './device.service.ts';
import type { EmailConfirmationService } from './email-confirmation.service.ts';

/**
 * The email confirmation mail (issue 18). The payload names only the account: the job makes the
 * code itself, so no code is ever stored in the queue. One waiting per account (resends collapse).
 */
export const CONFIRM_EMAIL_MAIL = defineJob(
  'auth.confirm-email-mail',
  z.object({ userId: z.string().uuid() }),
  {
    unique: true,
    retryDelay: 30,
  },
);

/** "A new device signed in to your account" (issue 18): names only the session. */
export const NEW_DEVICE_MAIL = defineJob('auth.new-device-mail', z.object({ sessionId: z.string().uuid() }), {
  retryDelay: 30,
});

export function registerAuthJobs(
  jobs: JobRegistry,
  deps: { confirmations: EmailConfirmationService; devices: DeviceService },
): void {
  jobs.register(CONFIRM_EMAIL_MAIL, (data) => deps.confirmations.sendMail(data.userId));
  jobs.register(NEW_DEVICE_MAIL, (data) => deps.devices.sendNewDeviceMail(data.sessionId));
}
