import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { userBlocks } from '../db/schema.ts';

/** SQL: either of the two people blocked the other (a blocked pair don't see each other's content). */
export const blockedEitherWaySql = (a: SQLWrapper | string, b: SQLWrapper | string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${userBlocks} b WHERE (b.blocker_id = ${a} AND b.blocked_id = ${b}) OR (b.blocker_id = ${b} AND b.blocked_id = ${a}))`;

/**
 * SQL: everyone `viewer` blocked or was blocked by, as an array read once per statement (an
 * InitPlan). `${x} = ANY(${blockedEitherWayIdsSql(viewer)})` is `blockedEitherWaySql(x, viewer)`
 * for many rows at once (a page of posts) without a probe per row.
 */
export const blockedEitherWayIdsSql = (viewer: SQLWrapper | string): SQL =>
  sql`ARRAY(SELECT b.blocked_id FROM ${userBlocks} b WHERE b.blocker_id = ${viewer} UNION ALL SELECT b.blocker_id FROM ${userBlocks} b WHERE b.blocked_id = ${viewer})`;
