import { CAPTION_LANGUAGES, type CaptionLanguage } from '@fanverse/contract';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session.store.ts';
import { readCaptionsFile } from './uploadCheck.ts';

/** A captions track chosen in the editor for one video, sent once the post is stored (ADR 0037). */
export interface PendingCaptions {
  name: string;
  text: string;
  language: CaptionLanguage;
}

/**
 * The captions controls of one video in the post editor: the language, a `.vtt` file (checked in
 * the browser: name, size, WebVTT signature; the server parses it), and for a video already in the
 * post its stored tracks with a remove button each.
 */
export function CaptionsPicker({
  videoName,
  pending,
  existing = [],
  onChange,
  onRemoveExisting,
}: {
  videoName: string;
  pending: PendingCaptions | null;
  existing?: readonly CaptionLanguage[];
  onChange(next: PendingCaptions | null): void;
  onRemoveExisting?(language: CaptionLanguage): void;
}) {
  const { t } = useTranslation('video');
  const appLanguage = useSession((s) => s.language);
  const ids = useId();
  const input = useRef<HTMLInputElement>(null);
  const [language, setLanguage] = useState<CaptionLanguage>(pending?.language ?? appLanguage);
  const [error, setError] = useState<string | null>(null);
  const languageName = (l: CaptionLanguage) => t(`languages.${l}`);

  const choose = async (file: File) => {
    const read = await readCaptionsFile(file, appLanguage);
    if ('error' in read) {
      setError(read.error);
      onChange(null);
      return;
    }
    setError(null);
    onChange({ name: file.name, text: read.text, language });
  };

  return (
    <div className="editor__captions" data-testid="editor-captions">
      {existing.length > 0 && (
        <ul className="editor__captions-existing" aria-label={t('editor.title')}>
          {existing.map((l) => (
            <li key={l}>
              {languageName(l)}
              {onRemoveExisting && (
                <button
                  type="button"
                  className="icon-button icon-button--plain"
                  aria-label={t('editor.remove', { language: languageName(l) })}
                  onClick={() => onRemoveExisting(l)}
                  data-testid={`editor-captions-remove-${l}`}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <label htmlFor={`${ids}-lang`} className="sr-only">
        {t('editor.language', { name: videoName })}
      </label>
      <div className="editor__captions-row">
        <select
          id={`${ids}-lang`}
          value={language}
          onChange={(e) => {
            const next = e.target.value as CaptionLanguage;
            setLanguage(next);
            if (pending) onChange({ ...pending, language: next });
          }}
          data-testid="editor-captions-language"
        >
          {CAPTION_LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {languageName(l)}
            </option>
          ))}
        </select>
        <button type="button" className="button button--small" onClick={() => input.current?.click()}>
          {t('editor.choose')}
        </button>
      </div>
      <input
        ref={input}
        type="file"
        accept=".vtt,text/vtt"
        className="sr-only"
        tabIndex={-1}
        aria-label={t('editor.for', { name: videoName })}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) void choose(file);
          e.target.value = '';
        }}
        data-testid="editor-captions-file"
      />
      {pending && (
        <p className="editor__captions-chosen" data-testid="editor-captions-chosen">
          <span>{t('editor.chosen', { file: pending.name, language: languageName(pending.language) })}</span>
          <button
            type="button"
            className="icon-button icon-button--plain"
            aria-label={t('editor.clear')}
            onClick={() => onChange(null)}
          >
            ×
          </button>
        </p>
      )}
      {error && (
        <p className="field-error" role="alert" data-testid="editor-captions-error">
          {error}
        </p>
      )}
    </div>
  );
}
