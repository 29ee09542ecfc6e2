import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { RateLimiter } from './lib/rate-limiter.ts';
import type { Mailer, OutboxMailer } from './mail/mailer.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { ResetCodeRepository } from './modules/auth/reset-code.repository.ts';
import { SessionRepository } from './modules/auth/session.repository.ts';
import { ContactRepository } from './modules/contact/contact.repository.ts';
import { ContactService } from './modules/contact/contact.service.ts';
import { HomeService } from './modules/home/home.service.ts';
import { CountersService } from './modules/users/counters.service.ts';
import { UserRepository } from './modules/users/user.repository.ts';
import { UserService } from './modules/users/user.service.ts';
import type { SessionEvents } from './realtime/session-events.ts';

export interface ServiceDeps {
  config: Config;
  database: Database;
  mailer: Mailer;
  outbox: OutboxMailer | undefined;
  limiter: RateLimiter;
  sessionEvents: SessionEvents;
  now?: () => Date;
}

/** The composition root of the domain: repositories and services, wired once. */
export function buildServices(deps: ServiceDeps) {
  const { db } = deps.database;
  const users = new UserRepository(db);
  const sessions = new SessionRepository(db);
  const counters = new CountersService();
  counters.register(async (auth) => ({ notificationsUnread: await users.unreadNotifications(auth.userId) }));
  const onSessionsRevoked = (ids: string[]) => deps.sessionEvents.revoked(ids);
  return {
    users,
    counters,
    auth: new AuthService({
      users,
      sessions,
      resetCodes: new ResetCodeRepository(db),
      mailer: deps.mailer,
      limiter: deps.limiter,
      config: deps.config,
      now: deps.now,
      onSessionsRevoked,
    }),
    user: new UserService({ users, sessions, counters, now: deps.now, onSessionsRevoked }),
    home: new HomeService({ users, config: deps.config }),
    contact: new ContactService(new ContactRepository(db), deps.limiter),
    outbox: deps.outbox,
  };
}

export type Services = ReturnType<typeof buildServices>;
