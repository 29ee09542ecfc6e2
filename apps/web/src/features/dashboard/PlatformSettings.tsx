import {
  FEATURE_SWITCHES,
  type FeatureSwitches,
  MAX_HOLD_DAYS,
  PAYOUT_PERIODS,
  type PayoutPeriod,
  type PlatformSettingsRequest,
  type PlatformSettingsResponse,
  platformSettingsRequestSchema,
} from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { NumberSetting } from './NumberSetting.tsx';

const KEY = ['admin-settings'];

/** Renders `children` with the super's run-time settings (GET /admin/settings, one request shared). */
export function WithSettings({ children }: { children: (settings: PlatformSettingsResponse) => ReactNode }) {
  const query = useQuery({ queryKey: KEY, queryFn: () => api('admin.settings') });
  if (query.isPending) return <Loader />;
  if (query.isError) return <Alert>{errorText(query.error)}</Alert>;
  return <>{children(query.data)}</>;
}

/** Payout period and holding time (PATCH /admin/settings). */
export function PayoutSettings() {
  return <WithSettings>{(settings) => <PayoutForm settings={settings} />}</WithSettings>;
}

/** Feature switches, saved together (PATCH /admin/settings). */
export function FeatureSettings() {
  return <WithSettings>{(settings) => <FeatureForm settings={settings} />}</WithSettings>;
}

/** The server configuration (environment), read-only. */
export function ServerSettings() {
  const { t } = useTranslation('dashboard');
  return (
    <WithSettings>
      {({ server }) => (
        <section className="dashboard-section" data-testid="dashboard-server" aria-labelledby="server-title">
          <h2 id="server-title">{t('server.title')}</h2>
          <dl className="dashboard-facts">
            <div>
              <dt>{t('server.paymentProvider')}</dt>
              <dd data-testid="server-paymentProvider">{server.paymentProvider}</dd>
            </div>
            <div>
              <dt>{t('server.devOutbox')}</dt>
              <dd data-testid="server-devOutbox">{t(server.devOutbox ? 'on' : 'off')}</dd>
            </div>
            <div>
              <dt>{t('server.sandbox')}</dt>
              <dd data-testid="server-sandbox">{t(server.sandboxControls ? 'on' : 'off')}</dd>
            </div>
          </dl>
          <p className="muted dashboard-note">{t('server.note')}</p>
        </section>
      )}
    </WithSettings>
  );
}

/** Saves part of the settings, then refreshes the dashboard and the app's start-up features. */
export function useSaveSettings(onSaved: (settings: PlatformSettingsResponse) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: PlatformSettingsRequest) => api('admin.updateSettings', input),
    onSuccess: (settings) => {
      client.setQueryData(KEY, settings);
      const { app, status, setStartup } = useSession.getState();
      if (app) {
        setStartup(status, {
          ...app,
          features: {
            ...app.features,
            payoutPeriod: settings.payoutPeriod,
            earningsHoldDays: settings.holdDays,
            switches: settings.features,
            giftCosts: settings.giftCosts,
          },
        });
      }
      onSaved(settings);
    },
  });
}

/**
 * The edited copy of one settings section: starts from (and follows) the saved value `current`,
 * clears the confirmation on every change, and `submit` saves what `toRequest` makes of the draft
 * (nothing when it answers null: the section showed its own refusal).
 */
export function useSettingsDraft<T>(current: T, toRequest: (draft: T) => PlatformSettingsRequest | null) {
  const [draft, setDraftState] = useState(current);
  const [saved, setSaved] = useState(false);
  // Followed by value: `current` may be a new object with the same settings on every render.
  const currentKey = JSON.stringify(current);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for `current`
  useEffect(() => setDraftState(current), [currentKey]);
  const save = useSaveSettings(() => setSaved(true));
  return {
    draft,
    setDraft: (next: T) => {
      setDraftState(next);
      setSaved(false);
    },
    saved,
    save,
    submit: (event: FormEvent) => {
      event.preventDefault();
      setSaved(false);
      const request = toRequest(draft);
      if (request) save.mutate(request);
    },
  };
}

function PayoutForm({ settings }: { settings: PlatformSettingsResponse }) {
  const { t } = useTranslation('dashboard');
  const [error, setError] = useState<string | null>(null);
  const { draft, setDraft, saved, save, submit } = useSettingsDraft(
    { period: settings.payoutPeriod as PayoutPeriod, hold: String(settings.holdDays) },
    ({ period, hold }) => {
      const parsed = platformSettingsRequestSchema.safeParse({
        payoutPeriod: period,
        holdDays: hold.trim() === '' ? undefined : hold,
      });
      if (!parsed.success || parsed.data.holdDays === undefined) {
        setError(t('payouts.holdInvalid', { max: MAX_HOLD_DAYS }));
        return null;
      }
      setError(null);
      return parsed.data;
    },
  );
  const { period, hold } = draft;
  const serverError =
    save.error instanceof ApiError ? (save.error.fields.holdDays ?? errorText(save.error)) : null;
  const shownError = error ?? serverError;

  return (
    <SettingsForm
      testId="dashboard-payouts-settings"
      name="payouts"
      title={t('payouts.title')}
      onSubmit={submit}
      saveLabel={t('payouts.save')}
      saveDisabled={save.isPending}
      error={shownError}
      saved={
        saved &&
        t('payouts.saved', { period: t(`payouts.${settings.payoutPeriod}`), count: settings.holdDays })
      }
    >
      <fieldset className="settings-choices">
        <legend>{t('payouts.period')}</legend>
        {PAYOUT_PERIODS.map((option) => (
          <label key={option} className="checkbox">
            <input
              type="radio"
              name="payout-period"
              value={option}
              checked={period === option}
              onChange={() => setDraft({ period: option, hold })}
              data-testid={`setting-payout-${option}`}
            />{' '}
            {t(`payouts.${option}`)}
          </label>
        ))}
      </fieldset>
      <NumberSetting
        id="hold-days-input"
        label={t('payouts.hold')}
        value={hold}
        min={0}
        max={MAX_HOLD_DAYS}
        invalid={Boolean(shownError)}
        describedBy="hold-days-note"
        testId="setting-hold-days"
        onChange={(value) => {
          setDraft({ period, hold: value });
          setError(null);
        }}
      />
      <p id="hold-days-note" className="muted dashboard-note">
        {t('payouts.note', { max: MAX_HOLD_DAYS })}
      </p>
    </SettingsForm>
  );
}

function FeatureForm({ settings }: { settings: PlatformSettingsResponse }) {
  const { t } = useTranslation('dashboard');
  const {
    draft: switches,
    setDraft,
    saved,
    save,
    submit,
  } = useSettingsDraft<FeatureSwitches>(settings.features, (features) => ({ features }));
  const changed = FEATURE_SWITCHES.some((name) => switches[name] !== settings.features[name]);

  return (
    <SettingsForm
      testId="dashboard-features"
      name="features"
      title={t('features.title')}
      note={t('features.note')}
      onSubmit={submit}
      saveLabel={t('features.save')}
      saveDisabled={save.isPending || !changed}
      error={save.isError ? errorText(save.error) : null}
      saved={saved && t('features.saved')}
    >
      <ul className="settings-switches">
        {FEATURE_SWITCHES.map((name) => (
          <li key={name}>
            <SettingSwitch
              id={`feature-${name}`}
              label={t(`features.names.${name}`)}
              hint={t(`features.hints.${name}`)}
              checked={switches[name]}
              onChange={(on) => setDraft({ ...switches, [name]: on })}
            />
          </li>
        ))}
      </ul>
    </SettingsForm>
  );
}

/**
 * The frame of one settings section of the super dashboard: its heading and note, the form with
 * its save button, and the refusal or the confirmation under it. `name` prefixes the test ids of
 * the button and the messages (`{name}-save`, `{name}-error`, `{name}-saved`).
 */
export function SettingsForm(props: {
  testId: string;
  name: string;
  title: string;
  note?: string;
  onSubmit: (event: FormEvent) => void;
  saveLabel: string;
  saveDisabled: boolean;
  error: string | null;
  saved: string | false;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <section className="dashboard-section" data-testid={props.testId} aria-labelledby={titleId}>
      <h2 id={titleId}>{props.title}</h2>
      {props.note && <p className="muted dashboard-note">{props.note}</p>}
      <form className="settings-form" onSubmit={props.onSubmit} noValidate>
        {props.children}
        <button
          type="submit"
          className="button button--primary"
          disabled={props.saveDisabled}
          data-testid={`${props.name}-save`}
        >
          {props.saveLabel}
        </button>
      </form>
      {props.error && <Alert testId={`${props.name}-error`}>{props.error}</Alert>}
      {props.saved && (
        <Alert tone="success" testId={`${props.name}-saved`}>
          {props.saved}
        </Alert>
      )}
    </section>
  );
}

/** One on/off setting with its hint, as a switch (`data-testid` is the id). */
export function SettingSwitch(props: {
  id: string;
  label: string;
  hint: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  const { id, label, hint, checked, onChange } = props;
  return (
    <>
      <label className="switch" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          role="switch"
          aria-checked={checked}
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-describedby={`${id}-hint`}
          data-testid={id}
        />
        {label}
      </label>
      <span id={`${id}-hint`} className="muted dashboard-note">
        {hint}
      </span>
    </>
  );
}
