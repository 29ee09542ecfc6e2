import type { FormEvent, ReactNode } from 'react';
import { errorText } from '../../app/api.ts';
import { Alert } from '../../ui/Feedback.tsx';

/**
 * The frame every money settings form shares (pricing, payout method, bundles, offer links, the
 * welcome message): a title, the fields, the save button, then the saved note or the error.
 */
export function MoneyForm({
  title,
  level = 2,
  testId,
  onSubmit,
  children,
  pending,
  saveLabel,
  saveTestId,
  saved,
  savedTestId,
  error,
}: {
  title: string;
  /** h2 on the statistics page; h3 inside the offers section. */
  level?: 2 | 3;
  testId: string;
  onSubmit: () => void;
  children: ReactNode;
  pending: boolean;
  saveLabel: string;
  saveTestId: string;
  /** Shown once saved (null: nothing). */
  saved?: string | null;
  savedTestId?: string;
  error: unknown;
}) {
  const Title = level === 2 ? 'h2' : 'h3';
  return (
    <form
      className="form money-form"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSubmit();
      }}
      data-testid={testId}
      noValidate
    >
      <Title className="money-subtitle">{title}</Title>
      {children}
      <button type="submit" className="button button--primary" disabled={pending} data-testid={saveTestId}>
        {saveLabel}
      </button>
      {saved && (
        <Alert tone="success" testId={savedTestId}>
          {saved}
        </Alert>
      )}
      {error ? <Alert>{errorText(error)}</Alert> : null}
    </form>
  );
}
