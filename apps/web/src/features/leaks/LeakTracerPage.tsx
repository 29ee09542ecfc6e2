import type { LeakTrace } from '@fanverse/contract';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { Alert } from '../../ui/Feedback.tsx';
import './leaks.css';

/**
 * /leaks: the leak tracer (ADR 0026). A creator (their own media) or staff (any media) uploads a
 * copy found elsewhere; the invisible mark names the fan it was served to and when, and the result
 * goes with a DMCA complaint in one click.
 */
export default function LeakTracerPage() {
  const { t } = useTranslation('leaks');
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const trace = useMutation({
    mutationFn: (copy: File) => api('leaks.trace', {}, { files: [copy] }),
  });
  return (
    <section className="panel leaks" data-testid="leak-tracer">
      <h1 className="panel__title">{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <form
        className="form leaks__form"
        onSubmit={(event) => {
          event.preventDefault();
          if (file) trace.mutate(file);
        }}
        noValidate
      >
        <div className="field">
          <label htmlFor={`${id}-file`}>{t('file')}</label>
          <input
            id={`${id}-file`}
            type="file"
            accept="image/jpeg,image/png,image/webp,video/mp4,video/webm,video/quicktime"
            onChange={(e) => {
              const chosen = e.target.files?.[0] ?? null;
              if (preview) URL.revokeObjectURL(preview);
              setFile(chosen);
              setPreview(chosen ? URL.createObjectURL(chosen) : null);
              trace.reset();
            }}
            data-testid="leak-file"
          />
          <span className="field__hint">{t('fileHint')}</span>
        </div>
        {preview &&
          (file?.type.startsWith('video/') ? (
            <video
              className="leaks__preview"
              src={preview}
              aria-label={t('previewAlt')}
              controls
              muted
              playsInline
              preload="metadata"
              data-testid="leak-preview-video"
            />
          ) : (
            <img className="leaks__preview" src={preview} alt={t('previewAlt')} />
          ))}
        <button
          type="submit"
          className="button button--primary"
          disabled={!file || trace.isPending}
          data-testid="leak-trace"
        >
          {trace.isPending ? t('tracing') : t('trace')}
        </button>
      </form>
      {trace.isError && <Alert>{errorText(trace.error)}</Alert>}
      {trace.data && <TraceResult result={trace.data} />}
    </section>
  );
}

function TraceResult({ result }: { result: LeakTrace }) {
  const { t, i18n } = useTranslation('leaks');
  const complain = useMutation({
    mutationFn: () => api('leaks.complain', {}, { params: { id: result._id } }),
  });
  const complaintId = complain.data?.complaintId ?? result.complaintId;
  if (!result.found || !result.fan)
    return (
      <div className="alert alert--info leaks__result" role="status" data-testid="leak-result">
        {t('notFound')}
      </div>
    );
  const when = result.servedAt
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeStyle: 'short' }).format(
        new Date(result.servedAt),
      )
    : '';
  const confidence = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(
    result.confidence,
  );
  return (
    <div className="leaks__result leaks__result--found" role="status" data-testid="leak-result">
      <h2>{t('found.title')}</h2>
      <dl className="details">
        <dt>{t('found.fan')}</dt>
        <dd data-testid="leak-fan">
          @{result.fan.user} ({result.fan.name})
        </dd>
        <dt>{t('found.media')}</dt>
        <dd>{result.media?.name}</dd>
        <dt>{t('found.served')}</dt>
        <dd data-testid="leak-served">{when}</dd>
        <dt>{t('found.confidence')}</dt>
        <dd data-testid="leak-confidence">{t('found.percent', { value: confidence })}</dd>
      </dl>
      {result.kind === 'video' && <p className="muted">{t('found.videoNote')}</p>}
      {complaintId ? (
        <p className="alert alert--success" data-testid="leak-complaint-filed">
          {t('complaint.filed')}
        </p>
      ) : (
        <button
          type="button"
          className="button button--danger"
          disabled={complain.isPending}
          onClick={() => complain.mutate()}
          data-testid="leak-complain"
        >
          {t('complaint.file')}
        </button>
      )}
      {complain.isError && <Alert>{errorText(complain.error)}</Alert>}
    </div>
  );
}
