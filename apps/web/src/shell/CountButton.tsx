import type { ComponentProps } from 'react';
import { Icon } from './icons.tsx';

interface CountButtonProps {
  icon: ComponentProps<typeof Icon>['name'];
  /** Unread count shown as a corner badge (hidden at 0, "99+" past 99). */
  count: number;
  /** The visible label of the phone's bottom bar; without it, the header's icon button. */
  label?: string;
  ariaLabel: string;
  onClick: () => void;
  testId: string;
  badgeTestId: string;
  opensDialog?: boolean;
}

/** An icon button with an unread badge: messages and notifications, in the header and the bottom bar. */
export function CountButton({
  icon,
  count,
  label,
  ariaLabel,
  onClick,
  testId,
  badgeTestId,
  opensDialog,
}: CountButtonProps) {
  return (
    <button
      type="button"
      className={label ? 'bottom-nav__item' : 'icon-button'}
      onClick={onClick}
      aria-label={ariaLabel}
      aria-haspopup={opensDialog ? 'dialog' : undefined}
      data-testid={testId}
    >
      <span className="bottom-nav__icon">
        <Icon name={icon} />
        {count > 0 && (
          <span className="badge badge--corner" aria-hidden="true" data-testid={badgeTestId}>
            {count > 99 ? '99+' : count}
          </span>
        )}
      </span>
      {label && (
        <span className="bottom-nav__label" aria-hidden="true">
          {label}
        </span>
      )}
    </button>
  );
}
