import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Role } from '@fanverse/contract';
import sharp from 'sharp';
import type { AuthInfo } from '../http/guards.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { Services } from '../services.ts';
import { seedWikiArticles } from './wiki-articles.ts';

const PALETTES: Record<string, [string, string]> = {
  creator1: ['#bd0909', '#f59e0b'],
  creator2: ['#0f766e', '#38bdf8'],
  creator3: ['#7c3aed', '#ec4899'],
};

/** A generated picture: a gradient with soft shapes, different for each seed. */
async function picture(
  file: string,
  colors: [string, string],
  seed: number,
  portrait = false,
): Promise<void> {
  const [w, h] = portrait ? [1080, 1920] : [1200, 900];
  const circles = Array.from({ length: 6 }, (_, i) => {
    const x = ((seed * 97 + i * 211) % w) | 0;
    const y = ((seed * 53 + i * 157) % h) | 0;
    const r = 80 + ((seed * 31 + i * 67) % 220);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="white" fill-opacity="${0.08 + (i % 3) * 0.06}"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${colors[0]}"/><stop offset="1" stop-color="${colors[1]}"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${circles}</svg>`;
  await sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toFile(file);
}

const POSTS = [
  { message: 'Hello everyone! A free preview of this week 🌴', visibility: 'free' as const, price: 0 },
  {
    message: 'For my subscribers: the full set from Saturday.',
    visibility: 'subscribers' as const,
    price: 0,
  },
  { message: 'Exclusive behind the scenes. Unlock it with credits.', visibility: 'ppv' as const, price: 50 },
];

/**
 * Demo content: each seeded creator gets a subscription price, free, subscriber and pay-per-view
 * posts with generated pictures, a story and a gallery category, all approved by the super admin.
 */
export async function seedDemoContent(services: Services, jobs: Pick<JobQueue, 'drain'>): Promise<void> {
  const superUser = await services.users.findByLogin('superadmin');
  if (!superUser) return;
  const reviewer = authOf(superUser);
  await seedWikiArticles(services, reviewer);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanverse-seed-'));
  try {
    for (const [handle, colors] of Object.entries(PALETTES)) {
      const user = await services.users.findByLogin(handle);
      if (!user) continue;
      const auth = authOf(user);
      await services.users.update(user.id, {
        user: {},
        profile: {
          subscriptionPriceCents: handle === 'creator2' ? 1499 : 999,
          discountStatus: handle === 'creator3' ? 'on' : 'off',
          discountPercent: handle === 'creator3' ? 20 : 0,
        },
      });
      const mediaIds: string[] = [];
      for (const [i, p] of POSTS.entries()) {
        const file = path.join(dir, `${handle}-${i}.jpg`);
        await picture(file, colors, i + handle.length * 7);
        const post = await services.posts.create(
          auth,
          {
            message: p.message,
            kind: 'post',
            visibility: p.visibility,
            price: p.price,
            discountStatus: handle === 'creator3' && p.visibility === 'ppv' ? 'on' : 'off',
            discountPercent: handle === 'creator3' && p.visibility === 'ppv' ? 20 : 0,
            discountDateLimit: null,
          },
          [
            {
              field: 'files',
              filename: `${handle}-${i}.jpg`,
              mimetype: 'image/jpeg',
              path: file,
              size: fs.statSync(file).size,
            },
          ],
        );
        mediaIds.push(...post.media.map((m) => m._id));
        await jobs.drain();
        await services.posts.review(reviewer, { id: post._id, adminStatus: 'approved' });
      }
      const storyFile = path.join(dir, `${handle}-story.jpg`);
      await picture(storyFile, [colors[1], colors[0]], 99, true);
      const story = await services.posts.create(
        auth,
        {
          message: 'Today on set ✨',
          kind: 'story',
          visibility: 'free',
          price: 0,
          discountStatus: 'off',
          discountPercent: 0,
          discountDateLimit: null,
        },
        [
          {
            field: 'files',
            filename: 'story.jpg',
            mimetype: 'image/jpeg',
            path: storyFile,
            size: fs.statSync(storyFile).size,
          },
        ],
      );
      await jobs.drain();
      await services.posts.review(reviewer, { id: story._id, adminStatus: 'approved' });
      await services.gallery.saveCategory(auth, { name: 'Favourites', media: mediaIds });
    }
    const fan = await services.users.findByLogin('fanuser1');
    if (fan) {
      await services.creators.follow(authOf(fan), 'creator1');
      await services.creators.follow(authOf(fan), 'creator2');
      // Demo credits through a real ledger entry (the credit bags come with the money migration).
      await services.moneyStore.billing.ensureDefaultBags();
      await services.wallet.grantCredits(fan.id, 300, `demo-credits:${fan.id}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function authOf(user: { id: string; username: string; roles: Role[]; verified: boolean }): AuthInfo {
  return {
    userId: user.id,
    sessionId: 'seed',
    username: user.username,
    roles: user.roles,
    verified: user.verified,
  };
}
