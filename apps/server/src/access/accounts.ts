/**
 * Accounts: what waits for a confirmed email (the verified flag, spec §6, issue 18). Until the
 * email is confirmed an account may browse, but profile customisation (avatar, cover, display
 * name) and the free credits wait. Every service asks these predicates; none re-tests the flag.
 */
type MaybeVerified = { verified: boolean } | null | undefined;

/** The account confirmed its email (or was verified another way: a creator accepted, a demo account). */
export const hasConfirmedEmail = (who: MaybeVerified): boolean => !!who?.verified;

/** Avatar, cover and display name changes. */
export const mayCustomiseProfile = hasConfirmedEmail;

/** The verified flag's free credits (granted once per account). */
export const mayReceiveFreeCredits = hasConfirmedEmail;
