import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { userBlocks } from '../db/schema.ts';

/** SQL: either of the two people blocked the other (a blocked pair don't see each other's content). */
export const blockedEitherWaySql = (a: SQLWrapper | string, b: SQLWrapper | string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${userBlocks} b WHERE (b.blocker_id = ${a} AND b.blocked_id = ${b}) OR (b.blocker_id = ${b} AND b.blocked_id = ${a}))`;
