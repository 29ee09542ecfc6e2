/**
 * The access module: every business rule about who may see or do what is written here once, as a
 * TypeScript predicate for services and as a drizzle SQL fragment for repositories (ADR 0016).
 */

export * from './accounts.ts';
export * from './blocks.ts';
export * from './lives.ts';
export * from './media.ts';
export * from './messages.ts';
export * from './posts.ts';
export * from './roles.ts';
export * from './subscriptions.ts';
