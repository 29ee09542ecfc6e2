import type { ReactNode } from 'react';

/**
 * A row of an account list (devices, passkeys): a name, lines of detail, and one action button
 * (e.g. "Sign out", "Remove") named for screen readers with the item's name.
 */
export function ItemRow({
  title,
  details,
  action,
  highlighted,
  testId,
}: {
  title: ReactNode;
  details: ReactNode[];
  action?: { label: string; ariaLabel: string; busy: boolean; onClick: () => void; testId: string };
  /** Marked with a coloured edge (the current device). */
  highlighted?: boolean;
  testId: string;
}) {
  return (
    <li className="devices__item" data-testid={testId} data-current={highlighted || undefined}>
      <div className="devices__what">
        <strong>{title}</strong>
        {details.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed lines of one row, never reordered.
          <span key={i} className="muted">
            {line}
          </span>
        ))}
      </div>
      {action && (
        <button
          type="button"
          className="button"
          disabled={action.busy}
          onClick={action.onClick}
          aria-label={action.ariaLabel}
          data-testid={action.testId}
        >
          {action.label}
        </button>
      )}
    </li>
  );
}
