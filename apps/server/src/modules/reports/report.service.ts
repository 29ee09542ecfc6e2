import type { ReportReason } from '@fanverse/contract';
import { AppError } from '../../http/app-error.ts';
import type { AuthInfo } from '../../http/guards.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { CreatorService } from '../creators/creator.service.ts';
import type { PostService } from '../posts/post.service.ts';
import type { ReportRepository } from './report.repository.ts';

const REPORTS_PER_HOUR = 30;

/** Fans report posts, stories, profiles and messages with a reason of spec §3. */
export class ReportService {
  constructor(
    private readonly repo: ReportRepository,
    private readonly posts: PostService,
    private readonly creators: CreatorService,
    private readonly limiter: RateLimiter,
  ) {}

  async report(
    auth: AuthInfo,
    input: {
      type: 'post' | 'story' | 'profile' | 'message';
      id: string;
      reason: ReportReason;
      details?: string;
    },
  ): Promise<string> {
    const state = await this.limiter.hit(`report:${auth.userId}`, 3600);
    if (state.count > REPORTS_PER_HOUR)
      throw new AppError('RATE_LIMITED', { seconds: Math.ceil(state.resetInMs / 1000) });
    if (input.type === 'post' || input.type === 'story') {
      if (!/^[0-9a-f-]{36}$/i.test(input.id)) throw new AppError('NOT_FOUND');
      await this.posts.visible(auth, input.id);
    } else if (input.type === 'profile') {
      if (!(await this.creators.findCreatorByHandle(input.id))) throw new AppError('NOT_FOUND');
    }
    return this.repo.create({
      reporterId: auth.userId,
      targetType: input.type,
      targetId: input.id,
      reason: input.reason,
      details: input.details ?? null,
    });
  }
}
