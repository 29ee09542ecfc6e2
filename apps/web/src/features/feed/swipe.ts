import { useRef } from 'react';

/** Swipe of spec §9: over 50 px and faster than 0.45 px per ms. */
export const SWIPE_MIN_PX = 50;
export const SWIPE_MIN_SPEED = 0.45;

export function swipeDirection(dx: number, ms: number): 'left' | 'right' | null {
  if (Math.abs(dx) <= SWIPE_MIN_PX || ms <= 0) return null;
  if (Math.abs(dx) / ms <= SWIPE_MIN_SPEED) return null;
  return dx < 0 ? 'left' : 'right';
}

/** The same rule on the vertical axis (reels): 'up' moves to the next video. */
export function verticalSwipe(dy: number, ms: number): 'up' | 'down' | null {
  const d = swipeDirection(dy, ms);
  return d === 'left' ? 'up' : d === 'right' ? 'down' : null;
}

/** Pointer handlers that report a horizontal swipe; returns true from onPointerUp when one happened. */
export function useSwipe(onSwipe: (direction: 'left' | 'right') => void) {
  const start = useRef<{ x: number; t: number } | null>(null);
  const swiped = useRef(false);
  return {
    onPointerDown: (event: React.PointerEvent) => {
      start.current = { x: event.clientX, t: event.timeStamp };
      swiped.current = false;
    },
    onPointerUp: (event: React.PointerEvent) => {
      const from = start.current;
      start.current = null;
      if (!from) return;
      const direction = swipeDirection(event.clientX - from.x, event.timeStamp - from.t);
      if (direction) {
        swiped.current = true;
        onSwipe(direction);
      }
    },
    /** Whether the last pointer gesture was a swipe (so its click should be ignored). */
    wasSwipe: () => swiped.current,
  };
}
