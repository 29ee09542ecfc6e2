import fs from 'node:fs';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { logSmtpCheck, SmtpMailer } from './mail/mailer.ts';
import { logVideoTools } from './media/ffmpeg.ts';
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
  if (config.smtpUrl && !config.devOutbox) {
    const smtp = new SmtpMailer(config.smtpUrl, config.mailFrom);
    await logSmtpCheck(smtp, log);
    smtp.close();
  }

  if (config.seedDemo && (await seedDemo(built.services.users, config.seedPassword))) {
    await seedDemoContent(built.services, built.jobs);
    console.info(
      `\nDemo data seeded. Accounts (password "${config.seedPassword}"):\n${DEMO_ACCOUNTS.map(
        (a) => `  ${a.username.padEnd(12)} ${a.roles.join(', ')}`,
      ).join('\n')}\n`,
    );
  }

  await built.app.listen({ port: config.port, host: config.host });
  console.info(`${config.appName} is running at http://localhost:${config.port} (${database.kind})`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await built.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  console.error('Start-up failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
