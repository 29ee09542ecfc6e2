import { LIVE_AUDIENCES, type LiveAudience, startLiveRequestSchema } from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { currentLanguage } from '../../app/session.store.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { Field } from '../../ui/Field.tsx';
import { type FieldErrors, validateWith } from '../../ui/formErrors.ts';
import { startBroadcast } from './broadcast.ts';
import './live.css';

type Tab = 'browser' | 'obs';

/** /live/new: the creator goes live from the browser (camera preview, device picker) or from OBS. */
export default function GoLivePage() {
  const { t } = useTranslation('live');
  const [tab, setTab] = useState<Tab>('browser');
  return (
    <section className="panel golive" data-testid="golive-page">
      <h1 className="panel__title">{t('go.title')}</h1>
      <div className="golive__tabs" role="tablist" aria-label={t('go.source')}>
        {(['browser', 'obs'] as const).map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`golive-tab-${id}`}
            aria-controls={`golive-panel-${id}`}
            aria-selected={tab === id}
            className={`golive__tab${tab === id ? ' golive__tab--on' : ''}`}
            onClick={() => setTab(id)}
          >
            {t(`go.tab.${id}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`golive-panel-${tab}`} aria-labelledby={`golive-tab-${tab}`}>
        {tab === 'browser' ? <BrowserSource /> : <ObsSource />}
      </div>
    </section>
  );
}

/** Title, audience, ticket price and goal: the same fields for both sources. */
function useLiveForm() {
  const [values, setValues] = useState({
    title: '',
    audience: 'subscribers' as LiveAudience,
    ticketPrice: '',
    goalCredits: '',
    goalLabel: '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = (k: keyof typeof values) => (v: string) => setValues((old) => ({ ...old, [k]: v }));
  const parse = (source: 'browser' | 'obs') => {
    const raw = {
      title: values.title,
      audience: values.audience,
      ticketPrice: values.audience === 'ticket' ? values.ticketPrice || '0' : '0',
      goalCredits: values.goalCredits || undefined,
      goalLabel: values.goalLabel || undefined,
      source: source === 'obs' ? 'rtmp' : 'browser',
    };
    const checked = validateWith(startLiveRequestSchema, raw, currentLanguage());
    setErrors(checked.ok ? {} : checked.errors);
    return checked.ok ? checked.data : null;
  };
  return { values, set, errors, parse };
}

function LiveFields({ form }: { form: ReturnType<typeof useLiveForm> }) {
  const { t } = useTranslation('live');
  const { values, set, errors } = form;
  return (
    <div className="golive__fields">
      <Field
        name="title"
        label={t('go.liveTitle')}
        value={values.title}
        onChange={set('title')}
        error={errors.title}
        required
        maxLength={120}
      />
      <Field
        kind="select"
        name="audience"
        label={t('go.audience')}
        value={values.audience}
        onChange={set('audience')}
      >
        {LIVE_AUDIENCES.map((a) => (
          <option key={a} value={a}>
            {t(`audience.${a}`)}
          </option>
        ))}
      </Field>
      {values.audience === 'ticket' && (
        <Field
          name="ticketPrice"
          type="number"
          inputMode="numeric"
          label={t('go.ticketPrice')}
          value={values.ticketPrice}
          onChange={set('ticketPrice')}
          error={errors.ticketPrice}
          required
        />
      )}
      <Field
        name="goalCredits"
        type="number"
        inputMode="numeric"
        label={t('go.goalCredits')}
        value={values.goalCredits}
        onChange={set('goalCredits')}
        error={errors.goalCredits}
      />
      <Field
        name="goalLabel"
        label={t('go.goalLabel')}
        hint={t('go.goalHint')}
        value={values.goalLabel}
        onChange={set('goalLabel')}
        error={errors.goalLabel}
        maxLength={80}
      />
    </div>
  );
}

function BrowserSource() {
  const { t } = useTranslation('live');
  const navigate = useNavigate();
  const form = useLiveForm();
  const video = useRef<HTMLVideoElement>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const [camera, setCamera] = useState('');
  const [mic, setMic] = useState('');
  const [deviceError, setDeviceError] = useState<string | null>(null);

  // The preview: asks for the camera and microphone, again whenever the creator picks another one.
  useEffect(() => {
    let cancelled = false;
    let opened: MediaStream | null = null;
    navigator.mediaDevices
      ?.getUserMedia({
        video: {
          ...(camera ? { deviceId: { exact: camera } } : {}),
          width: { ideal: 1280 },
          height: { ideal: 720 },
        },
        audio: mic ? { deviceId: { exact: mic } } : true,
      })
      .then(async (s) => {
        if (cancelled) {
          for (const tr of s.getTracks()) tr.stop();
          return;
        }
        opened = s;
        setStream(s);
        setDeviceError(null);
        setDevices(await navigator.mediaDevices.enumerateDevices());
      })
      .catch(() => !cancelled && setDeviceError(t('go.noCamera')));
    return () => {
      cancelled = true;
      // Kept when it became the broadcast (the live page owns it then).
      if (opened && !opened.active) return;
      if (opened && !handedOver.current) for (const tr of opened.getTracks()) tr.stop();
    };
  }, [camera, mic, t]);
  const handedOver = useRef(false);
  useEffect(() => {
    if (video.current) video.current.srcObject = stream;
  }, [stream]);

  const start = useMutation({
    mutationFn: (input: NonNullable<ReturnType<typeof form.parse>>) => api('lives.start', input),
    onSuccess: ({ live }) => {
      if (stream) {
        handedOver.current = true;
        startBroadcast(live._id, stream);
      }
      void navigate(`/live/${live._id}`);
    },
  });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const input = form.parse('browser');
    if (input && stream) start.mutate(input);
  };
  const list = (kind: MediaDeviceKind) => devices.filter((d) => d.kind === kind);
  return (
    <form className="golive__form" onSubmit={submit} noValidate>
      <div className="golive__preview">
        <video
          ref={video}
          autoPlay
          muted
          playsInline
          aria-label={t('go.preview')}
          data-testid="golive-preview"
        />
      </div>
      {deviceError && <Alert>{deviceError}</Alert>}
      <div className="golive__fields">
        <Field kind="select" name="camera" label={t('go.camera')} value={camera} onChange={setCamera}>
          <option value="">{t('go.defaultDevice')}</option>
          {list('videoinput').map((d, i) => (
            <option key={d.deviceId || i} value={d.deviceId}>
              {d.label || t('go.cameraN', { n: i + 1 })}
            </option>
          ))}
        </Field>
        <Field kind="select" name="microphone" label={t('go.microphone')} value={mic} onChange={setMic}>
          <option value="">{t('go.defaultDevice')}</option>
          {list('audioinput').map((d, i) => (
            <option key={d.deviceId || i} value={d.deviceId}>
              {d.label || t('go.micN', { n: i + 1 })}
            </option>
          ))}
        </Field>
      </div>
      <LiveFields form={form} />
      {start.isError && <Alert>{errorText(start.error)}</Alert>}
      <button
        type="submit"
        className="button button--primary"
        disabled={!stream || start.isPending}
        data-testid="golive-start"
      >
        {t('go.start')}
      </button>
    </form>
  );
}

function ObsSource() {
  const { t } = useTranslation('live');
  const navigate = useNavigate();
  const client = useQueryClient();
  const form = useLiveForm();
  const state = useQuery({ queryKey: ['lives.streamKey'], queryFn: () => api('lives.streamKey') });
  const [shown, setShown] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => api('lives.createStreamKey'),
    onSuccess: ({ key }) => {
      setShown(key);
      void client.invalidateQueries({ queryKey: ['lives.streamKey'] });
    },
  });
  const revoke = useMutation({
    mutationFn: () => api('lives.revokeStreamKey'),
    onSuccess: () => {
      setShown(null);
      void client.invalidateQueries({ queryKey: ['lives.streamKey'] });
    },
  });
  const start = useMutation({
    mutationFn: (input: NonNullable<ReturnType<typeof form.parse>>) => api('lives.start', input),
    onSuccess: ({ live }) => void navigate(`/live/${live._id}`),
  });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const input = form.parse('obs');
    if (input) start.mutate(input);
  };
  return (
    <form className="golive__form" onSubmit={submit} noValidate>
      <p className="muted">{t('obs.intro')}</p>
      <dl className="golive__obs">
        <dt>{t('obs.server')}</dt>
        <dd>
          <code data-testid="obs-server">{state.data?.server ?? '…'}</code>
        </dd>
        <dt>{t('obs.key')}</dt>
        <dd>
          {shown ? (
            <>
              <code data-testid="obs-key">{shown}</code>
              <p className="muted">{t('obs.shownOnce')}</p>
            </>
          ) : (
            <span className="muted">{state.data?.exists ? t('obs.hidden') : t('obs.none')}</span>
          )}
        </dd>
      </dl>
      <div className="golive__actions">
        <button type="button" className="button" onClick={() => create.mutate()} data-testid="obs-create-key">
          {state.data?.exists ? t('obs.replace') : t('obs.create')}
        </button>
        {state.data?.exists && (
          <button type="button" className="button" onClick={() => revoke.mutate()}>
            {t('obs.revoke')}
          </button>
        )}
      </div>
      {(create.isError || revoke.isError) && <Alert>{errorText(create.error ?? revoke.error)}</Alert>}
      <LiveFields form={form} />
      {start.isError && <Alert>{errorText(start.error)}</Alert>}
      <button
        type="submit"
        className="button button--primary"
        disabled={start.isPending}
        data-testid="obs-start"
      >
        {t('obs.start')}
      </button>
    </form>
  );
}
