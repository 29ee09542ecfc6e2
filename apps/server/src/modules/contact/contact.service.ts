import type { ContactRequest } from '@fanverse/contract';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { ReportRepository } from '../reports/report.repository.ts';
import type { ContactRepository } from './contact.repository.ts';

const PER_IP_PER_HOUR = 10;

/** Stores requests from the public contact, DMCA, content-removal and billing pages for admins. */
export class ContactService {
  constructor(
    private readonly repo: ContactRepository,
    private readonly limiter: RateLimiter,
    private readonly reports: ReportRepository,
  ) {}

  async submit(input: Required<ContactRequest>, auth: AuthInfo | null, ip: string): Promise<string> {
    const state = await this.limiter.hit(`contact:ip:${ip}`, 3600);
    if (state.count > PER_IP_PER_HOUR) {
      throw new AppError('RATE_LIMITED', { seconds: Math.ceil(state.resetInMs / 1000) });
    }
    const id = await this.repo.create({ ...input, userId: auth?.userId ?? null });
    // DMCA and content-removal requests are complaints for the moderators too.
    if (input.kind === 'dmca' || input.kind === 'content-removal') {
      await this.reports.create({
        reporterId: auth?.userId ?? null,
        targetType: input.kind,
        targetId: id,
        reason: 'other',
        details: `${input.subject}\n\n${input.message}\n\n${input.name} <${input.email}>`,
      });
    }
    return id;
  }
}
