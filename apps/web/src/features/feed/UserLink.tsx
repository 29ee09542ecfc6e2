import { lazy, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Boundary } from '../../app/hydration.tsx';
import { useSession } from '../../app/session.store.ts';
import { useUi } from '../../app/ui.store.ts';

// The card (frame, query, counts, buttons) loads when a card first opens, not with the feed.
const UserCardFrame = lazy(() => import('./UserPreviewCard.tsx'));

/** Pointer rest before the card opens, and the grace to move from the link onto the card. */
export const PREVIEW_OPEN_DELAY_MS = 450;
const PREVIEW_CLOSE_DELAY_MS = 250;

/**
 * Every link to a person (author lines, comments, lists): goes to their page and, for a signed-in
 * viewer, shows the user preview card (spec §2 overlays) — after a short rest of the pointer or on
 * keyboard focus on desktop, in a bottom sheet on a tap on phones (the card links to the page).
 * Visitors get the plain link (a creator's page needs login, spec §2).
 */
export function UserLink({
  handle,
  className,
  children,
  decorative = false,
  testId,
}: {
  handle: string;
  className?: string;
  children: ReactNode;
  /** A second link to the same person (the avatar beside the name): hidden from keyboard and readers. */
  decorative?: boolean;
  testId?: string;
}) {
  const signedIn = useSession((s) => s.user !== null);
  const phone = useUi((s) => s.screen === 'mobile');
  const [open, setOpen] = useState(false);
  const [anchor, setAnchor] = useState<DOMRect | null>(null);
  const linkRef = useRef<HTMLAnchorElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const cardId = useId();

  const later = useCallback((fn: () => void, ms: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(fn, ms);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = useCallback(() => {
    if (linkRef.current) setAnchor(linkRef.current.getBoundingClientRect());
    setOpen(true);
  }, []);
  const hide = useCallback(() => {
    clearTimeout(timer.current);
    setOpen(false);
  }, []);
  // A scrolled page moves the link away from a card placed by its old position.
  useEffect(() => {
    if (!open || phone) return;
    window.addEventListener('scroll', hide, { passive: true, capture: true });
    return () => window.removeEventListener('scroll', hide, { capture: true });
  }, [open, phone, hide]);

  if (!signedIn) {
    return (
      <Link
        to={`/${handle}`}
        className={className}
        data-testid={testId}
        tabIndex={decorative ? -1 : undefined}
        aria-hidden={decorative || undefined}
      >
        {children}
      </Link>
    );
  }

  const hover = !phone && {
    onMouseEnter: () => later(show, PREVIEW_OPEN_DELAY_MS),
    onMouseLeave: () => later(hide, PREVIEW_CLOSE_DELAY_MS),
  };
  return (
    <>
      <Link
        ref={linkRef}
        to={`/${handle}`}
        className={className}
        data-testid={testId}
        tabIndex={decorative ? -1 : undefined}
        aria-hidden={decorative || undefined}
        aria-describedby={open && !phone ? cardId : undefined}
        {...hover}
        onFocus={phone ? undefined : () => later(show, PREVIEW_OPEN_DELAY_MS)}
        onBlur={
          phone
            ? undefined
            : (e) => {
                if (!document.getElementById(cardId)?.contains(e.relatedTarget as Node | null))
                  later(hide, PREVIEW_CLOSE_DELAY_MS);
              }
        }
        onKeyDown={(e) => {
          if (e.key === 'Escape' && open) {
            e.stopPropagation();
            hide();
          }
        }}
        onClick={(e) => {
          // On a phone the tap shows the card; its "View profile" goes on to the page.
          if (!phone || e.metaKey || e.ctrlKey) return;
          e.preventDefault();
          show();
        }}
      >
        {children}
      </Link>
      {open && (
        <Boundary fallback={null}>
          <UserCardFrame
            phone={phone}
            handle={handle}
            anchor={anchor}
            cardId={cardId}
            link={linkRef}
            onClose={hide}
            onStay={() => clearTimeout(timer.current)}
            onLeave={() => later(hide, PREVIEW_CLOSE_DELAY_MS)}
          />
        </Boundary>
      )}
    </>
  );
}
