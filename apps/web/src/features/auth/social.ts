import type { OidcCallbackResponse, SignInProviderId } from '@fanverse/contract';
import { api } from '../../app/api.ts';

/**
 * Social sign-in in a popup (spec §7, ADR 0036): the popup goes to the provider and comes back to
 * /auth/oidc/callback, which posts the provider's answer (the query string) to this window with
 * postMessage restricted to the app's origin; this window then finishes it with the server. When
 * the popup is blocked (phones), the page itself goes to the provider and the callback page
 * finishes it (the flow's browser key waits in sessionStorage).
 */
const FLOW_KEY = 'oidcFlow';
const MESSAGE_TYPE = 'fanverse:oidc-callback';
const CHANNEL = 'fanverse-oidc';

export type Intent = 'login' | 'link';
interface StoredFlow {
  browserKey: string;
  intent: Intent;
}

function session(): Storage | null {
  try {
    return sessionStorage;
  } catch {
    return null;
  }
}

/** Sent to the window waiting for it (never to another origin). */
interface CallbackMessage {
  type: typeof MESSAGE_TYPE;
  query: string;
}
const isCallbackMessage = (data: unknown): data is CallbackMessage =>
  !!data &&
  typeof data === 'object' &&
  (data as CallbackMessage).type === MESSAGE_TYPE &&
  typeof (data as CallbackMessage).query === 'string';

/**
 * Starts a provider sign-in (or link). Answers the server's result, or null when the page went to
 * the provider itself (popup blocked). Must be called in the click handler: the popup is opened
 * before anything is awaited, as popup blockers require.
 */
export async function startSocial(
  provider: SignInProviderId,
  intent: Intent,
  signal: AbortSignal,
): Promise<OidcCallbackResponse | null> {
  session()?.removeItem(FLOW_KEY);
  const popup = window.open('', 'fanverse-oidc', 'popup,width=480,height=680');
  let start: Awaited<ReturnType<typeof api<'auth.oidcStart'>>>;
  try {
    start = await api('auth.oidcStart', { provider, intent });
  } catch (err) {
    popup?.close();
    throw err;
  }
  if (!popup || popup.closed) {
    session()?.setItem(
      FLOW_KEY,
      JSON.stringify({ browserKey: start.browserKey, intent } satisfies StoredFlow),
    );
    window.location.assign(start.url);
    return null;
  }
  popup.location.href = start.url;
  const query = await waitForCallback(signal);
  popup.close();
  return api('auth.oidcCallback', { query, browserKey: start.browserKey });
}

/** The provider's answer from the popup: a message from this origin (or, opener lost, the channel). */
function waitForCallback(signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
    const done = () => {
      window.removeEventListener('message', onMessage);
      channel?.close();
      signal.removeEventListener('abort', onAbort);
    };
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !isCallbackMessage(event.data)) return;
      done();
      resolve(event.data.query);
    };
    const onAbort = () => {
      done();
      reject(new DOMException('cancelled', 'AbortError'));
    };
    window.addEventListener('message', onMessage);
    channel?.addEventListener('message', (event) => {
      if (isCallbackMessage(event.data))
        onMessage(new MessageEvent('message', { data: event.data, origin: window.location.origin }));
    });
    signal.addEventListener('abort', onAbort);
  });
}

/**
 * On the callback page: a full-page flow of this tab is finished here (answers its key); in a popup
 * the answer goes to the window that opened it, and the popup closes (answers null). A tab with no
 * flow of its own and no opener (a reloaded or copied callback address) has nothing to finish.
 */
export function deliverCallback(query: string): StoredFlow | 'posted' | 'nothing' {
  const stored = session()?.getItem(FLOW_KEY);
  if (stored) {
    session()?.removeItem(FLOW_KEY);
    return JSON.parse(stored) as StoredFlow;
  }
  const message: CallbackMessage = { type: MESSAGE_TYPE, query };
  if (window.opener && !window.opener.closed) {
    (window.opener as Window).postMessage(message, window.location.origin);
    window.close();
    return 'posted';
  }
  if (typeof BroadcastChannel === 'function') {
    // An opener policy on the way cut the popup from its window: same-origin windows still hear.
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage(message);
    channel.close();
  }
  // Closes a popup whose opener was cut; a tab the person opened stays and says so.
  window.close();
  return 'nothing';
}

export const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';
