import type { Media, Post } from '@fanverse/contract';
import { discountedPrice } from '@fanverse/contract';
import type { MediaRow } from '../../db/schema.ts';
import { presentPublicUser } from '../users/public-user.presenter.ts';
import type { PostListRow } from './post.repository.ts';

export type PresentMedia = (row: MediaRow, access: boolean) => Media;

const onOff = (v: string): 'on' | 'off' => (v === 'on' ? 'on' : 'off');

/** A post as one viewer sees it; media through the access decision only. */
export function presentPost(
  row: PostListRow,
  media: MediaRow[],
  access: boolean,
  presentMedia: PresentMedia,
): Post {
  const discount = {
    discountStatus: onOff(row.discountStatus),
    discountPercent: row.discountPercent,
    discountDateLimit: row.discountDateLimit?.toISOString() ?? null,
  };
  return {
    _id: row.id,
    kind: row.kind === 'story' ? 'story' : 'post',
    user: presentPublicUser(row.author),
    creator: row.author.username,
    message: row.message,
    media: media.map((m) => presentMedia(m, access)),
    visibility: row.visibility,
    price: row.price,
    finalPrice: discountedPrice(row.price, discount),
    ...discount,
    comments: row.comments,
    likes: row.likes,
    liked: row.liked,
    saved: row.saved,
    access,
    adminStatus: row.adminStatus,
    reviewReason: row.reviewReason,
    status: row.status,
    publishAt: row.publishAt?.toISOString() ?? null,
    // A story is dated when it went live, as its lifetime counts (a post, and a story not yet
    // recorded live, when written: a post's feeds are in that order).
    date: (row.kind === 'story' && row.publishedAt ? row.publishedAt : row.createdAt).toISOString(),
  };
}
