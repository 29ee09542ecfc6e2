import { hash } from 'node:crypto';

/**
 * The tag of an answer's body (before compression): SHA-1, base64, in one call. The ETag plugin
 * (app.ts) tags answers with it as weak tags; routes that keep an answer's JSON (`shared`,
 * http/route.ts) tag it once the same way, and the plugin uses the tag they set.
 */
export const bodyHash = (payload: string | Buffer): string => hash('sha1', payload, 'base64');

/** The weak ETag of a body, as the ETag plugin writes it. */
export const weakEtag = (payload: string | Buffer): string => `W/"${bodyHash(payload)}"`;
