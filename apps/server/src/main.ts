import fs from 'node:fs';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { serveMetrics } from './http/metrics.ts';
import { logSmtpCheck, SmtpMailer } from './mail/mailer.ts';
import { logVideoTools } from './media/ffmpeg.ts';
import { ensureAdminCreator } from './modules/users/admin-creator.ts';
import { DEMO_ACCOUNTS, seedDemo } from './seed/demo.ts';
import { seedDemoContent } from './seed/demo-content.ts';

/** Composition root: config → database → migrations → seed → app → listen. */
async function main(): Promise<void> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) {
    console.error(
      `Node 24 is needed; this is ${process.version}. Start with \`npm start\`, which runs the Node 24 that \`npm install\` put in node_modules/.bin.`,
    );
    process.exit(1);
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  // Dates and statistics periods follow the configured time zone.
  process.env.TZ = config.timezone;
  fs.mkdirSync(config.dataDir, { recursive: true });

  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrate(database);
  const built = await buildApp({ config, database });
  const log = built.app.log;
  if (applied.length) log.info({ migrations: applied }, 'migrations applied');
  await logVideoTools(config.media, log);
  if (config.live.engine)
    log.warn(
      'LIVE_ENGINE=nginx-rtmp: RTMP lives are packaged by nginx and carry no traceable mark (ADR 0045)',
    );
  if (config.smtpUrl && !config.devOutbox) {
    const smtp = new SmtpMailer(config.smtpUrl, config.mailFrom);
    await logSmtpCheck(smtp, log);
    smtp.close();
  }

  if (
    config.seedDemo &&
    (await seedDemo(built.services.users, config.seedPassword, built.services.twoFactor))
  ) {
    await seedDemoContent(built.services, built.jobs);
    console.info(
      `\nDemo data seeded. Accounts (password "${config.seedPassword}"):\n${DEMO_ACCOUNTS.map(
        (a) => `  ${a.username.padEnd(12)} ${a.roles.join(', ')}`,
      ).join('\n')}\n`,
    );
  }

  // After the demo seed (which only seeds an empty database): the official creator page, once.
  const official = await ensureAdminCreator(built.services.users, config);
  if (official.created) log.info({ handle: config.appKey }, 'admin creator made');

  await built.app.listen({ port: config.port, host: config.host });
  console.info(`${config.appName} is running at http://localhost:${config.port} (${database.kind})`);
  // Metrics are an aid, not a reason to fail: a busy port (two copies on one machine) is a warning.
  const metrics = config.metrics.port
    ? await serveMetrics(built.metrics, config.metrics).then(
        (served) => {
          log.info({ url: served.url }, 'metrics served');
          return served;
        },
        (err: unknown) => {
          log.warn({ err }, 'metrics not served: set METRICS_PORT to a free port (0 turns them off)');
          return undefined;
        },
      )
    : undefined;

  // Graceful shutdown (SIGTERM from an orchestrator, Ctrl-C): sockets closed, no new connections,
  // requests and jobs in flight finished, then Redis and the database closed. Past the time limit
  // the process exits anyway (with 1), before an orchestrator's own kill.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, limitSeconds: config.shutdownTimeoutSeconds }, 'shutting down');
    const limit = setTimeout(() => {
      log.error('shutdown time limit reached: exiting with work unfinished');
      process.exit(1);
    }, config.shutdownTimeoutSeconds * 1000);
    limit.unref();
    try {
      await built.close();
      await metrics?.close();
      await database.close();
      log.info('shut down');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  console.error('Start-up failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
