import {
  ADMINISTRATOR_ROLES,
  type ConfirmOwnerForm,
  confirmOwnerFormSchema,
  confirmOwnerRequest,
  totpEnableRequestSchema,
} from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { hasSomeRole, useSession } from '../../app/session.store.ts';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Form, FormError, TextField, useZodForm } from '../../ui/Form.tsx';
import { LinkedProviders } from './LinkedProviders.tsx';
import { PasskeysSection } from './Passkeys.tsx';

const STATUS_KEY = ['auth.twoFactorStatus'];

/**
 * /user/security: two-step sign-in (issue 18). Turn it on with the authenticator app (QR code or the
 * key typed by hand, confirmed by a first code), see the ten recovery codes once, make new ones, or
 * turn it off with the password and a code. Staff land here when the server answers
 * TWO_FACTOR_REQUIRED (admin and super roles act only with it on).
 */
export default function SecurityPage() {
  const { t } = useTranslation('account');
  const [params] = useSearchParams();
  const user = useSession((s) => s.user);
  const client = useQueryClient();
  const status = useQuery({ queryKey: STATUS_KEY, queryFn: () => api('auth.twoFactorStatus') });
  // Recovery codes just made (enabling or regenerating): shown once, until the person says they saved them.
  const [codes, setCodes] = useState<string[] | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: STATUS_KEY });
  const staff = hasSomeRole(user, ADMINISTRATOR_ROLES);
  const on = status.data?.totp ?? false;
  return (
    <section className="panel security" aria-labelledby="security-title" data-testid="security-page">
      <h1 id="security-title">{t('security.title')}</h1>
      {(params.get('required') || staff) && !on && (
        <Alert tone="info" testId="security-required">
          {t('security.required')}
        </Alert>
      )}
      {status.isPending && <Loader skeleton="rows" />}
      {status.isError && <Alert>{errorText(status.error)}</Alert>}
      {codes ? (
        <RecoveryCodes
          codes={codes}
          onDone={() => {
            setCodes(null);
            void refresh();
          }}
        />
      ) : (
        status.data &&
        (on ? (
          <TwoFactorOn left={status.data.recoveryCodesLeft} onCodes={setCodes} onOff={refresh} />
        ) : (
          <TwoFactorSetup onEnabled={setCodes} />
        ))
      )}
      <PasskeysSection />
      <LinkedProviders />
      <p className="form__links">
        <Link to="/user/devices">{t('devices.link')}</Link>
        <Link to="/?feed=my-profile">{t('devices.back')}</Link>
      </p>
    </section>
  );
}

/** Off: start the set-up, scan the QR code (or type the key), confirm with a first code. */
function TwoFactorSetup({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const { t } = useTranslation('account');
  const setup = useMutation({ mutationFn: () => api('auth.totpSetup', {}) });
  const form = useZodForm(totpEnableRequestSchema, { code: '' });
  if (!setup.data) {
    return (
      <div className="security__state" data-testid="security-off">
        <p>
          <strong>{t('security.off')}</strong> {t('security.offIntro')}
        </p>
        {setup.isError && <Alert>{errorText(setup.error)}</Alert>}
        <button
          type="button"
          className="button button--primary"
          disabled={setup.isPending}
          onClick={() => setup.mutate()}
          data-testid="security-start"
        >
          {t('security.start')}
        </button>
      </div>
    );
  }
  const { qr, secret } = setup.data;
  return (
    <Form
      form={form}
      className="form security__setup"
      testId="security-setup"
      onSubmit={async (values) => onEnabled((await api('auth.totpEnable', values)).recoveryCodes)}
    >
      <h2>{t('security.scanTitle')}</h2>
      <ol className="security__steps">
        <li>{t('security.scan')}</li>
        <li>{t('security.type')}</li>
      </ol>
      <img className="security__qr" src={qr} alt={t('security.qrAlt')} width={240} height={240} />
      <p className="security__manual">
        {t('security.manual')}{' '}
        <code className="security__key" data-testid="security-secret">
          {secret.replace(/(.{4})/g, '$1 ').trim()}
        </code>
      </p>
      <FormError />
      <TextField
        name="code"
        label={t('twoFactor.codeLabel')}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        required
      />
      <button
        type="submit"
        className="button button--primary"
        disabled={form.formState.isSubmitting}
        data-testid="security-enable"
      >
        {t('security.enable')}
      </button>
    </Form>
  );
}

/** The ten recovery codes, once: the person copies or prints them, then says so. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('account');
  return (
    <div className="security__codes" data-testid="recovery-codes">
      <Alert tone="success" testId="security-codes-shown">
        {t('security.codesIntro')}
      </Alert>
      <ul className="recovery-codes" aria-label={t('security.codesTitle')}>
        {codes.map((code) => (
          <li key={code}>
            <code data-testid="recovery-code">{code}</code>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="button button--primary"
        onClick={onDone}
        data-testid="security-codes-saved"
      >
        {t('security.codesSaved')}
      </button>
    </div>
  );
}

/** On: how many recovery codes are left; new codes or off, each after the password and a code. */
function TwoFactorOn({
  left,
  onCodes,
  onOff,
}: {
  left: number;
  onCodes: (codes: string[]) => void;
  onOff: () => void;
}) {
  const { t } = useTranslation('account');
  const [action, setAction] = useState<'regenerate' | 'disable' | null>(null);
  const form = useZodForm(confirmOwnerFormSchema, { password: '', code: '' });
  const submit = async (values: ConfirmOwnerForm) => {
    if (action === 'regenerate') {
      onCodes((await api('auth.recoveryCodesRegenerate', confirmOwnerRequest(values))).recoveryCodes);
    } else {
      await api('auth.twoFactorDisable', confirmOwnerRequest(values));
      onOff();
    }
  };
  return (
    <div className="security__state" data-testid="security-on">
      <p>
        <strong>{t('security.on')}</strong> {t('security.codesLeft', { count: left })}
      </p>
      {action === null ? (
        <div className="security__actions">
          <button
            type="button"
            className="button"
            onClick={() => setAction('regenerate')}
            data-testid="security-regenerate"
          >
            {t('security.regenerate')}
          </button>
          <button
            type="button"
            className="button button--danger"
            onClick={() => setAction('disable')}
            data-testid="security-disable"
          >
            {t('security.disable')}
          </button>
        </div>
      ) : (
        <Form form={form} className="form security__confirm" testId="security-confirm" onSubmit={submit}>
          <h2>{action === 'regenerate' ? t('security.regenerate') : t('security.disable')}</h2>
          <p className="muted">{t('security.confirmIntro')}</p>
          <FormError />
          <TextField
            name="password"
            type="password"
            label={t('security.password')}
            autoComplete="current-password"
            required
          />
          <TextField
            name="code"
            label={t('security.codeOrRecovery')}
            autoComplete="one-time-code"
            maxLength={20}
            required
          />
          <div className="security__actions">
            <button
              type="submit"
              className={action === 'disable' ? 'button button--danger' : 'button button--primary'}
              disabled={form.formState.isSubmitting}
              data-testid="security-confirm-submit"
            >
              {action === 'regenerate' ? t('security.regenerateSubmit') : t('security.disableSubmit')}
            </button>
            <button type="button" className="button" onClick={() => setAction(null)}>
              {t('security.cancel')}
            </button>
          </div>
        </Form>
      )}
    </div>
  );
}
