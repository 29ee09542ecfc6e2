import type { LeakTrace } from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useInstantFormat } from '../../app/dates.ts';
import { onSocketEvent } from '../../app/socket.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { usePatchQuery } from '../../ui/queryParams.ts';
import './leaks.css';

/** How often a trace still being read is asked for again (the socket usually tells first). */
const POLL_MS = 3_000;

const traceKey = (id: string) => ['leaks.get', id] as const;
const LIST_KEY = ['leaks.list'] as const;
const isTracing = (trace: LeakTrace | undefined) =>
  trace?.status === 'pending' || trace?.status === 'running';

/**
 * /leaks: the leak tracer (ADR 0026). A creator (their own media and lives) or staff (any) uploads
 * a copy found elsewhere (a picture, a video, a recording of a live, ADR 0045); a job reads its
 * invisible mark (the fan it was served to, and when) while the page shows "Tracing…"; the result
 * goes with a DMCA complaint in one click. The trace shown is in the address (`?trace=`), so it
 * survives a reload; the recent ones are listed below.
 */
export default function LeakTracerPage() {
  const { t } = useTranslation('leaks');
  const id = useId();
  const client = useQueryClient();
  const [params] = useSearchParams();
  const patch = usePatchQuery();
  const current = params.get('trace');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  /** Changed to empty the file input once its copy is sent (the trace card takes its place). */
  const [inputKey, setInputKey] = useState(0);
  const choose = (chosen: File | null) => {
    if (preview) URL.revokeObjectURL(preview);
    setFile(chosen);
    setPreview(chosen ? URL.createObjectURL(chosen) : null);
  };
  const start = useMutation({
    mutationFn: (copy: File) => api('leaks.trace', {}, { files: [copy] }),
    onSuccess: (trace) => {
      client.setQueryData(traceKey(trace._id), trace);
      void client.invalidateQueries({ queryKey: LIST_KEY });
      patch({ trace: trace._id }, { push: true });
      choose(null);
      setInputKey((k) => k + 1);
    },
  });
  // The job's result, pushed by the worker that ran it (whichever server copy): no need to wait for the poll.
  useEffect(
    () =>
      onSocketEvent('leakTrace', ({ trace }) => {
        client.setQueryData(traceKey(trace._id), trace);
        void client.invalidateQueries({ queryKey: LIST_KEY });
      }),
    [client],
  );
  return (
    <section className="panel leaks" data-testid="leak-tracer">
      <h1 className="panel__title">{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <form
        className="form leaks__form"
        onSubmit={(event) => {
          event.preventDefault();
          if (file) start.mutate(file);
        }}
        noValidate
      >
        <div className="field">
          <label htmlFor={`${id}-file`}>{t('file')}</label>
          <input
            key={inputKey}
            id={`${id}-file`}
            type="file"
            accept="image/jpeg,image/png,image/webp,video/mp4,video/webm,video/quicktime"
            onChange={(e) => {
              choose(e.target.files?.[0] ?? null);
              start.reset();
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
          disabled={!file || start.isPending}
          data-testid="leak-trace"
        >
          {start.isPending ? t('uploading') : t('trace')}
        </button>
      </form>
      {start.isError && <Alert>{errorText(start.error)}</Alert>}
      {current && <TraceCard id={current} />}
      <RecentTraces current={current} onOpen={(trace) => patch({ trace }, { push: true })} />
    </section>
  );
}

/** One trace: "Tracing…" until the socket or the poll says it is done, then its result. */
function TraceCard({ id }: { id: string }) {
  const { t } = useTranslation('leaks');
  const trace = useQuery({
    queryKey: traceKey(id),
    queryFn: () => api('leaks.get', undefined, { params: { id } }),
    refetchInterval: (query) => (isTracing(query.state.data) ? POLL_MS : false),
  });
  if (trace.isPending) return <Loader />;
  if (trace.isError) return <Alert>{errorText(trace.error)}</Alert>;
  const result = trace.data;
  if (isTracing(result))
    return (
      <div className="leaks__result leaks__tracing" role="status" data-testid="leak-tracing">
        <span className="spinner" aria-hidden="true" />
        <div>
          <h2>{t('tracing')}</h2>
          <p className="muted">{t('tracingHint', { name: result.fileName })}</p>
        </div>
      </div>
    );
  if (result.status === 'failed')
    return (
      <div className="leaks__result" data-testid="leak-result">
        <Alert testId="leak-failed">{t(`failed.${result.error ?? 'failed'}`)}</Alert>
      </div>
    );
  return <TraceResult result={result} />;
}

function TraceResult({ result }: { result: LeakTrace }) {
  const { t, i18n } = useTranslation('leaks');
  const client = useQueryClient();
  const format = useInstantFormat(true);
  const complain = useMutation({
    mutationFn: () => api('leaks.complain', {}, { params: { id: result._id } }),
    onSuccess: ({ complaintId }) => {
      client.setQueryData(traceKey(result._id), { ...result, complaintId });
    },
  });
  const complaintId = complain.data?.complaintId ?? result.complaintId;
  if (!result.found || !result.fan)
    return (
      <div className="alert alert--info leaks__result" role="status" data-testid="leak-result">
        {t('notFound')}
      </div>
    );
  const confidence = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(
    result.confidence ?? 0,
  );
  return (
    <div className="leaks__result leaks__result--found" role="status" data-testid="leak-result">
      <h2>{t('found.title')}</h2>
      <dl className="details">
        <dt>{t('found.fan')}</dt>
        <dd data-testid="leak-fan">
          @{result.fan.user} ({result.fan.name})
        </dd>
        <dt>{result.live ? t('found.live') : t('found.media')}</dt>
        <dd data-testid="leak-source">{result.live?.title ?? result.media?.name}</dd>
        <dt>{t('found.served')}</dt>
        <dd data-testid="leak-served">{format(result.servedAt)}</dd>
        <dt>{t('found.confidence')}</dt>
        <dd data-testid="leak-confidence">{t('found.percent', { value: confidence })}</dd>
      </dl>
      {result.live ? (
        <p className="muted">{t('found.liveNote')}</p>
      ) : (
        result.kind === 'video' && <p className="muted">{t('found.videoNote')}</p>
      )}
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

/** The requester's recent traces: any of them opens in the card above. */
function RecentTraces({ current, onOpen }: { current: string | null; onOpen: (id: string) => void }) {
  const { t } = useTranslation('leaks');
  const format = useInstantFormat(true);
  const list = useQuery({
    queryKey: LIST_KEY,
    queryFn: () => api('leaks.list'),
    refetchInterval: (query) => (query.state.data?.traces.some(isTracing) ? POLL_MS : false),
  });
  const traces = list.data?.traces ?? [];
  if (traces.length === 0) return null;
  const outcome = (trace: LeakTrace) => {
    if (isTracing(trace)) return t('recent.tracing');
    if (trace.status === 'failed') return t('recent.failed');
    return trace.fan ? t('recent.found', { user: trace.fan.user }) : t('recent.none');
  };
  return (
    <section className="leaks__recent" aria-labelledby="leaks-recent-title">
      <h2 id="leaks-recent-title">{t('recent.title')}</h2>
      <ul data-testid="leak-recent">
        {traces.map((trace) => (
          <li key={trace._id}>
            <button
              type="button"
              className="leaks__recent-item"
              aria-current={trace._id === current || undefined}
              onClick={() => onOpen(trace._id)}
              data-testid="leak-recent-item"
            >
              <span className="leaks__recent-name">{trace.fileName || t('recent.unnamed')}</span>
              <span className="muted">
                {format(trace.createdAt)} · {outcome(trace)}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
