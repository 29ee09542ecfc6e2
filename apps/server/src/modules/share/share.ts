import { and, eq, isNull, sql } from 'drizzle-orm';
import { creatorSql, livePostSql, publishedPostSql } from '../../access/index.ts';
import type { Db } from '../../db/client.ts';
import { posts, profiles, users } from '../../db/schema.ts';

/** What a social network shows for a shared link (Open Graph and Twitter card). */
export interface ShareMeta {
  title: string;
  description: string;
  /** The creator's avatar or cover (public pictures); never a post's media, locked or not. */
  image: string | null;
  type: 'profile' | 'article';
}

const POST_PATH = /^\/post\/([0-9a-f-]{36})\/?$/i;
const HANDLE_PATH = /^\/@?([A-Za-z0-9_.-]{3,40})\/?$/;
const DESCRIPTION_MAX = 200;

const clip = (text: string) =>
  text.length > DESCRIPTION_MAX ? `${text.slice(0, DESCRIPTION_MAX - 1).trimEnd()}…` : text;

/**
 * Link previews of spec §6 (issue 15): a creator's page (`/handle`) and a published post
 * (`/post/id`) get a title, description and picture in the HTML the server answers, so a shared
 * link shows a card on social networks, whose crawlers run no JavaScript. The creator page itself
 * keeps its login rule; only these public facts are shown. A post's text is shown only for a free
 * post; its media never.
 */
export class ShareService {
  constructor(private readonly deps: { db: Db; appName: string }) {}

  async metaFor(pathname: string): Promise<ShareMeta | null> {
    const post = POST_PATH.exec(pathname);
    if (post?.[1]) return this.postMeta(post[1]);
    const handle = HANDLE_PATH.exec(pathname);
    if (handle?.[1]) return this.creatorMeta(handle[1]);
    return null;
  }

  private readonly author = {
    username: users.username,
    name: users.name,
    displayName: profiles.displayName,
    about: profiles.about,
    avatar: profiles.avatar,
    cover: profiles.cover,
  };

  private async creatorMeta(handle: string): Promise<ShareMeta | null> {
    const [c] = await this.deps.db
      .select(this.author)
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(
        and(
          sql`lower(${users.username}) = ${handle.toLowerCase()}`,
          creatorSql(users.roles),
          isNull(users.deletedAt),
          isNull(users.suspendedAt),
        ),
      )
      .limit(1);
    if (!c) return null;
    const name = c.displayName || c.name;
    return {
      title: `${name} (@${c.username}) · ${this.deps.appName}`,
      description: clip(c.about?.trim() || `${name} on ${this.deps.appName}`),
      image: c.avatar ?? c.cover,
      type: 'profile',
    };
  }

  private async postMeta(id: string): Promise<ShareMeta | null> {
    const [p] = await this.deps.db
      .select({ ...this.author, message: posts.message, visibility: posts.visibility })
      .from(posts)
      .innerJoin(users, eq(users.id, posts.creatorId))
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(
        and(
          eq(posts.id, id),
          eq(posts.kind, 'post'),
          livePostSql(),
          publishedPostSql(),
          isNull(users.deletedAt),
          isNull(users.suspendedAt),
        ),
      )
      .limit(1);
    if (!p) return null;
    const name = p.displayName || p.name;
    const text = p.visibility === 'free' ? p.message.trim() : '';
    return {
      title: `${name} (@${p.username}) · ${this.deps.appName}`,
      description: clip(text || `A post by ${name} on ${this.deps.appName}`),
      image: p.avatar ?? p.cover,
      type: 'article',
    };
  }
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * index.html named after this instance (APP_NAME): its title and the brand of the shell it paints
 * before the app starts (apps/web/index.html), so the first paint shows the name the app will.
 */
export function nameIndexHtml(html: string, appName: string): string {
  const name = escapeHtml(appName);
  return html
    .replace(/<title>[^<]*<\/title>/, `<title>${name}</title>`)
    .replace(/(<span class="app-header__logo">)[^<]*(<\/span>)/, `$1${name}$2`);
}

/** index.html with the page's title and its Open Graph / Twitter tags (absolute URLs from `origin`). */
export function injectShareMeta(html: string, meta: ShareMeta, origin: string, pathname: string): string {
  const abs = (u: string) => (/^https?:\/\//.test(u) ? u : `${origin}${u.startsWith('/') ? '' : '/'}${u}`);
  const tags: [string, string, string][] = [
    ['property', 'og:type', meta.type],
    ['property', 'og:title', meta.title],
    ['property', 'og:description', meta.description],
    ['property', 'og:url', abs(pathname)],
    ['name', 'twitter:card', meta.image ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', meta.title],
    ['name', 'twitter:description', meta.description],
  ];
  if (meta.image)
    tags.push(['property', 'og:image', abs(meta.image)], ['name', 'twitter:image', abs(meta.image)]);
  const head = tags
    .map(([attr, key, value]) => `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`)
    .join('\n    ');
  return html
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(meta.title)}</title>`)
    .replace(
      /<meta name="description" content="[^"]*" \/>/,
      `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    )
    .replace('</head>', `    ${head}\n  </head>`);
}
