import { FIRST_VIEW_OUTSIDE, FIRST_VIEW_SCRIPT_ID, type FirstViewData } from '@fanverse/contract';

/** The data of the server's first view in this page (ADR 0048), or null (none, or unreadable). */
export function readFirstView(): FirstViewData | null {
  const script = document.getElementById(FIRST_VIEW_SCRIPT_ID);
  if (!script?.textContent) return null;
  try {
    const data = JSON.parse(script.textContent) as FirstViewData;
    return data && typeof data === 'object' && Array.isArray(data.queries) && data.app ? data : null;
  } catch {
    return null;
  }
}

/**
 * Takes off what the server's first view showed outside #root (its open modal: the age notice),
 * once the app shows its own or has taken the view over.
 */
export function dropFirstViewOutside(): void {
  document.getElementById(FIRST_VIEW_OUTSIDE)?.remove();
}
