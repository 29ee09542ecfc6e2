import { FIRST_VIEW_OUTSIDE, TIMINGS } from '@fanverse/contract';
import { createElement, type ReactNode, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useFirstRender } from '../app/firstRender.tsx';
import { dropFirstViewOutside } from '../app/firstView.ts';

export interface ModalProps {
  open: boolean;
  title: string;
  children: ReactNode;
  /** Asked to close (close button, backdrop, Escape through data-close). Omit for a blocking modal. */
  onClose?: () => void;
  /** Called once the close animation has finished (spec §4: optional callback). */
  onClosed?: () => void;
  /** 'sheet' slides up from the bottom (bottom-sheet pickers, phone menus). */
  variant?: 'dialog' | 'sheet';
  footer?: ReactNode;
  testId?: string;
  className?: string;
}

const FOCUSABLE =
  'a[href],button:not([disabled]),input:not([disabled]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])';

/** Open modals, topmost last; the page behind them is inert while any is open. */
const stack: HTMLElement[] = [];
/** Makes #root inert while a modal is open, and only then (main.tsx calls it when it takes over the first view). */
export function updateInert(): void {
  const root = document.getElementById('root');
  if (root) root.inert = stack.length > 0;
}

/**
 * Modal dialog or bottom sheet with the 250 ms animation of spec §9, focus trapped and returned.
 * One without onClose (the age advice) must be answered: it is an alert dialog, Escape does nothing.
 */
export function Modal({
  open,
  title,
  children,
  onClose,
  onClosed,
  variant = 'dialog',
  footer,
  testId,
  className,
}: ModalProps) {
  const { t } = useTranslation();
  const [mounted, setMounted] = useState(open);
  // A modal open in the server's first view (ADR 0048) has no document.body to portal to: the
  // server's render wraps it in a FIRST_VIEW_OUTSIDE element where it stands, and the server moves
  // that out of #root, which stays inert (so the keyboard reaches the modal alone). The render that
  // hydrates #root has nothing there; right after, the modal is portalled to document.body as any
  // other, in place of the server's copy.
  const inPlace = useFirstRender() !== null;
  // It is shown as it is once open, on the server and in the app's first render that hydrates or
  // replaces it (no fade out and in again).
  const [shown, setShown] = useState(
    () => open && (inPlace || !!document.getElementById('root')?.hasAttribute('data-first-view')),
  );
  const panelRef = useRef<HTMLDivElement>(null);
  const onClosedRef = useRef(onClosed);
  onClosedRef.current = onClosed;
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    if (open) {
      setMounted(true);
      let inner = 0;
      const outer = requestAnimationFrame(() => {
        inner = requestAnimationFrame(() => setShown(true));
      });
      return () => {
        cancelAnimationFrame(outer);
        cancelAnimationFrame(inner);
      };
    }
    setShown(false);
    const timer = setTimeout(() => {
      setMounted((wasMounted) => {
        if (wasMounted) onClosedRef.current?.();
        return false;
      });
    }, TIMINGS.modalAnimationMs);
    return () => clearTimeout(timer);
  }, [open]);

  // The server's copy goes in the same frame as this one appears (a layout effect: no moment with
  // both, or with neither).
  useLayoutEffect(() => {
    if (mounted && !inPlace) dropFirstViewOutside();
  }, [mounted, inPlace]);

  useEffect(() => {
    if (!mounted || inPlace) return;
    const panel = panelRef.current;
    if (!panel) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    stack.push(panel);
    updateInert();
    const first =
      panel.querySelector<HTMLElement>('[data-autofocus]') ?? panel.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel).focus();
    // Focus that lands outside the topmost modal (a click on the backdrop, a pop-up, the address
    // bar and back) returns to it: keyboard users stay inside until they answer.
    const keepFocus = (event: FocusEvent) => {
      if (stack[stack.length - 1] !== panel) return;
      if (event.target instanceof Node && panel.contains(event.target)) return;
      (panel.querySelector<HTMLElement>(FOCUSABLE) ?? panel).focus();
    };
    document.addEventListener('focusin', keepFocus);
    return () => {
      document.removeEventListener('focusin', keepFocus);
      stack.splice(stack.indexOf(panel), 1);
      updateInert();
      if (previous?.isConnected) previous.focus();
    };
  }, [mounted, inPlace]);

  if (!mounted) return null;

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key !== 'Tab' || !panelRef.current || stack[stack.length - 1] !== panelRef.current) return;
    const items = Array.from(panelRef.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const modal = (
    // biome-ignore lint/a11y/noStaticElementInteractions: a backdrop click is a pointer shortcut; keyboard users close with Escape or the close button.
    <div
      className={`modal-backdrop modal-backdrop--${variant}${shown ? ' is-open' : ''}`}
      style={{ transitionDuration: `${TIMINGS.modalAnimationMs}ms` }}
      onMouseDown={(event) => {
        if (event.target === event.currentTarget && onClose) onClose();
      }}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useAriaPropsSupportedByRole: the role is dialog or alertdialog (both modal, both take keys); the linter cannot read a conditional role. */}
      <div
        ref={panelRef}
        role={onClose ? 'dialog' : 'alertdialog'}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        tabIndex={-1}
        className={`modal modal--${variant}${shown ? ' is-open' : ''}${className ? ` ${className}` : ''}`}
        style={{ transitionDuration: `${TIMINGS.modalAnimationMs}ms` }}
        data-testid={testId}
        onKeyDown={onKeyDown}
      >
        <div className="modal__header">
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
          {onClose && (
            <button
              type="button"
              className="icon-button modal__close"
              onClick={onClose}
              data-close=""
              data-testid={testId ? `${testId}-close` : 'modal-close'}
              aria-label={t('close')}
            >
              <span aria-hidden="true">×</span>
            </button>
          )}
        </div>
        <div className="modal__body" id={bodyId}>
          {children}
        </div>
        {footer && <div className="modal__footer">{footer}</div>}
      </div>
    </div>
  );
  if (!inPlace) return createPortal(modal, document.body);
  // On the server (no document): marked to be moved out of #root. Hydrating: the server moved it.
  return typeof document === 'undefined' ? createElement(FIRST_VIEW_OUTSIDE, null, modal) : null;
}
