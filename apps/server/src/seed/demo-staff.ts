/**
 * The authenticator secret of the demo staff accounts (two-step sign-in is required for admin and
 * super roles, issue 18). Public on purpose, like the demo password: the e2e helpers compute codes
 * from it, and a person trying the demo adds it to an authenticator app by hand (README).
 */
export const DEMO_STAFF_TOTP_SECRET = 'FANVERSEDEMOSTAFFTOTPSECRET23456';
