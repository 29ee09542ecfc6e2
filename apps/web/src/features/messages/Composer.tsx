import { errorMessage, LIMITS, type Media } from '@fanverse/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeature } from '../../app/features.ts';
import { useSession } from '../../app/session.store.ts';
import { VaultPicker } from '../vault/VaultPicker.tsx';
import { messageProblem } from './messageList.ts';
import type { Outgoing } from './useChat.ts';

/** Files one message holds (the server's MESSAGE_RATE.maxFiles). */
const MAX_FILES = 10;

/**
 * Text (1024 at most, with a counter), images / videos and, for creators, a price in credits.
 * Spec §5 errors ('Message empty', too long) show before anything is sent.
 */
export function Composer({
  onSend,
  allowPrice,
  disabled = false,
  idPrefix = 'chat',
}: {
  onSend: (outgoing: Outgoing) => void;
  allowPrice: boolean;
  disabled?: boolean;
  idPrefix?: 'chat' | 'mass';
}) {
  const { t } = useTranslation('messages');
  const { t: tv } = useTranslation('vault');
  const language = useSession((s) => s.language);
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [vault, setVault] = useState<Media[]>([]);
  const [price, setPrice] = useState('');
  const [error, setError] = useState('');
  const id = useId();
  const max = LIMITS.messageLength;
  // A super may pause paid messages: the price field goes away and the media is sent free.
  const paidOn = useFeature('paidMessages');
  const priced = allowPrice && paidOn;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const count = files.length + vault.length;
    const problem = messageProblem(text, count, max);
    if (problem === 'empty') return setError(errorMessage('MESSAGE_EMPTY', language));
    if (problem === 'tooLong') return setError(errorMessage('MESSAGE_TOO_LONG', language, { max }));
    setError('');
    onSend({ text: text.trim(), files, vault, price: priced && count > 0 ? Number(price) || 0 : 0 });
    setText('');
    setFiles([]);
    setVault([]);
    setPrice('');
  };

  return (
    <form className="composer" onSubmit={submit} noValidate data-testid={`${idPrefix}-composer`}>
      {error && (
        <p className="composer__error" role="alert" data-testid={`${idPrefix}-error`}>
          {error}
        </p>
      )}
      {files.length > 0 && (
        <p className="composer__files">
          {t('composer.files', { count: files.length })}{' '}
          <button type="button" className="link-button" onClick={() => setFiles([])}>
            {t('composer.removeFiles')}
          </button>
        </p>
      )}
      {vault.length > 0 && (
        <p className="composer__files" data-testid={`${idPrefix}-vault-files`}>
          {tv('picker.attached', { count: vault.length })}{' '}
          <button type="button" className="link-button" onClick={() => setVault([])}>
            {tv('picker.remove')}
          </button>
        </p>
      )}
      {/* Creators attach files already in their vault by id, without uploading them again. */}
      {allowPrice && (
        <div className="composer__row">
          <VaultPicker
            max={Math.max(0, MAX_FILES - files.length)}
            onPick={(items) =>
              setVault((old) => [
                ...old,
                ...items.map((i) => i.media).filter((m) => !old.some((o) => o._id === m._id)),
              ])
            }
            testId={`${idPrefix}-vault`}
          />
        </div>
      )}
      <div className="composer__row">
        <label className="icon-button composer__attach" title={t('composer.attach')}>
          <svg
            className="icon"
            viewBox="0 0 24 24"
            width="22"
            height="22"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
            aria-hidden="true"
            focusable="false"
          >
            <path d="M21 11.5l-8.6 8.6a5 5 0 01-7.1-7.1l8.6-8.6a3.3 3.3 0 014.7 4.7l-8.6 8.6a1.7 1.7 0 01-2.4-2.4l7.9-7.9" />
          </svg>
          <span className="sr-only">{t('composer.attach')}</span>
          <input
            type="file"
            accept="image/*,video/*"
            multiple
            className="sr-only"
            onChange={(e) => {
              setFiles(Array.from(e.target.files ?? []));
              e.target.value = '';
            }}
            data-testid={`${idPrefix}-attach`}
          />
        </label>
        <label htmlFor={`${id}-text`} className="sr-only">
          {t('composer.label')}
        </label>
        <textarea
          id={`${id}-text`}
          className="composer__input"
          rows={1}
          value={text}
          placeholder={t('composer.placeholder')}
          onChange={(e) => {
            setText(e.target.value);
            if (error) setError('');
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && idPrefix === 'chat') {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
          aria-invalid={!!error}
          aria-describedby={`${id}-count`}
          data-testid={`${idPrefix}-input`}
        />
        <button
          type="submit"
          className="button button--primary"
          disabled={disabled}
          data-testid={`${idPrefix}-send`}
        >
          {t('composer.send')}
        </button>
      </div>
      <div className="composer__row composer__row--meta">
        {priced && files.length + vault.length > 0 && (
          <label className="composer__price">
            {t('composer.price')}
            <input
              type="number"
              min={0}
              step={1}
              inputMode="numeric"
              value={price}
              onChange={(e) => setPrice(e.target.value)}
              data-testid={`${idPrefix}-price`}
            />
          </label>
        )}
        <span
          id={`${id}-count`}
          className={`composer__count ${text.length > max ? 'composer__count--over' : ''}`}
          aria-live="polite"
        >
          {t('composer.count', { count: text.length, max })}
        </span>
      </div>
    </form>
  );
}
