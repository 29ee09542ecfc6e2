import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { SERVER_NODE_FLAGS } from '../scripts/server-node-flags.ts';
import { chromium } from './chromium.ts';

const PORT = Number(process.env.E2E_PORT ?? 3210);
/** RTMP ingest of the server under test (OBS journey). */
export const RTMP_PORT = Number(process.env.E2E_RTMP_PORT ?? PORT + 1);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
/** The OpenID Connect provider of the social sign-in journeys (its own web server below). */
const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? PORT + 2);
export const OIDC_ISSUER = `http://127.0.0.1:${OIDC_PORT}`;
/** Social sign-in returns to localhost (as passkeys need), so those journeys open the app there. */
export const LOCAL_URL = `http://localhost:${PORT}`;
const dataDir = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `fanverse-e2e-${PORT}`);
/** The server's signing secret, known to the journeys that act as a mail's signed link (cancel links). */
export const E2E_APP_SECRET = 'e2e-only-secret-0123456789abcdef0123456789';

export default defineConfig({
  testDir: './tests',
  outputDir: './artifacts/results',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  // A slow, busy CI machine gets more time before a check fails.
  expect: { timeout: process.env.CI ? 15_000 : 10_000 },
  reporter: [['list'], ['html', { outputFolder: './artifacts/report', open: 'never' }]],
  use: {
    baseURL: BASE_URL,
    // A trace costs every test (DOM snapshots at each action): in CI only a failed test's retry
    // records one (a sixth to two fifths of the journeys' time on a two-core machine), locally every failure.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: chromium,
  },
  projects: [
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions: chromium },
    },
  ],
  webServer: [
    {
      command: 'node --import tsx e2e/oidc-provider.ts',
      cwd: path.resolve(import.meta.dirname, '..'),
      url: `${OIDC_ISSUER}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { OIDC_PORT: String(OIDC_PORT), OIDC_REDIRECT_URI: `${LOCAL_URL}/auth/oidc/callback` },
    },
    {
      // The production bundle that `npm start` runs (e2e/run.mjs builds it first).
      command: `node ${SERVER_NODE_FLAGS.join(' ')} apps/server/dist/main.js`,
      cwd: path.resolve(import.meta.dirname, '..'),
      url: `${BASE_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        APP_SECRET: E2E_APP_SECRET,
        LIVE_RTMP_PORT: String(RTMP_PORT),
        // Journeys log in and out many times from one address.
        RATE_LOGIN_PER_IP: '1000',
        RATE_SIGNUP_PER_IP: '1000',
        RATE_RESET_PER_IP: '1000',
        // Social sign-in against the provider above (the client the test provider knows).
        OIDC_ISSUER_URL: OIDC_ISSUER,
        OIDC_CLIENT_ID: 'fanverse-test',
        OIDC_CLIENT_SECRET: 'fanverse-test-secret-0123456789',
        OIDC_NAME: 'Test ID',
      },
    },
  ],
});
