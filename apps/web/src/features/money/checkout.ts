/**
 * Checkout hand-off (spec §7): the browser leaves the app for the hosted billing page. What was
 * bought is remembered for this tab so my-credits can say how it went when the provider sends the
 * fan back (the success and decline links carry no flag of their own).
 */
const PENDING_KEY = 'fanverse.checkout';

export interface PendingCheckout {
  kind: 'credits' | 'subscription';
  /** Credits of the bag, or the creator's handle. */
  what: string;
  /** Balance before leaving, to tell an approved bag from a declined one on return. */
  balanceBefore: number | null;
}

/** Full-page redirect to the billing page answered by a checkout call. */
export function goToCheckout(redirectUrl: string, pending: PendingCheckout): void {
  try {
    sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  } catch {
    // Storage may be unavailable (private mode); the return message is only a nicety.
  }
  window.location.assign(redirectUrl);
}

/** The checkout this tab left for, read once per page load (the return is a full page load). */
let pendingOnLoad: PendingCheckout | null | undefined;

/**
 * The checkout this tab left for; the stored note is removed on first read but kept for this page
 * load, so a view mounted again during start-up still sees it.
 */
export function pendingCheckoutOnReturn(): PendingCheckout | null {
  if (pendingOnLoad !== undefined) return pendingOnLoad;
  pendingOnLoad = null;
  try {
    const raw = sessionStorage.getItem(PENDING_KEY);
    if (raw) {
      sessionStorage.removeItem(PENDING_KEY);
      pendingOnLoad = JSON.parse(raw) as PendingCheckout;
    }
  } catch {
    pendingOnLoad = null;
  }
  return pendingOnLoad;
}

/** Forgets the returned checkout once its message has been shown. */
export function forgetPendingCheckout(): void {
  pendingOnLoad = null;
}

/**
 * Outcome of a credits checkout on return: an explicit `payment` query flag wins; otherwise the
 * balance tells (it grows by the bag once the provider's postback has been applied).
 */
export function checkoutOutcome(
  flag: string | null,
  pending: PendingCheckout | null,
  balance: number,
): 'approved' | 'declined' | null {
  if (flag === 'approved' || flag === 'success') return 'approved';
  if (flag === 'declined' || flag === 'decline') return 'declined';
  if (pending?.kind !== 'credits' || pending.balanceBefore === null) return null;
  return balance >= pending.balanceBefore + Number(pending.what) ? 'approved' : 'declined';
}
