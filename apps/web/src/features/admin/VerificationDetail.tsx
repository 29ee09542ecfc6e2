import {
  DOCUMENT_SIDES,
  type DocumentSide,
  FIELD_MESSAGES,
  type Verification,
  verificationDecisionSchema,
} from '@fanverse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { ConfirmModal } from '../../ui/Confirm.tsx';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { FieldTooltip } from '../../ui/Field.tsx';
import { validateWith } from '../../ui/formErrors.ts';
import { Modal } from '../../ui/Modal.tsx';
import { countryName } from '../profile/countries.ts';
import { refreshCounters, useDateFormat } from './AdminParts.tsx';
import { ADMIN_KEYS } from './adminKeys.ts';
import { useDocumentImage } from './useDocumentImage.ts';

const FIELD_ORDER = [
  'fullName',
  'email',
  'phone',
  'country',
  'birthday',
  'instagram',
  'profileUrl',
  'socialNetworks',
  'description',
  'experience',
  'currentlyWorking',
  'platformName',
  'howKnown',
  'comments',
] as const;

/** One application: its fields, the three private photos, and Accept / Reject with confirmation. */
export function VerificationDetail({
  verification,
  onClose,
  onDecided,
}: {
  verification: Verification;
  onClose: () => void;
  onDecided: (decided: Verification) => void;
}) {
  const { t, i18n } = useTranslation('admin');
  const language = useSession((s) => s.language);
  const client = useQueryClient();
  const date = useDateFormat();
  const [confirm, setConfirm] = useState<'accept' | 'reject' | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const reasonId = useId();
  const decide = useMutation({
    mutationFn: (decision: 'accept' | 'reject') =>
      api(
        'admin.verificationDecide',
        { decision, reason: decision === 'reject' ? reason.trim() : undefined },
        { params: { id: verification._id } },
      ),
    onSuccess: (decided) => {
      setConfirm(null);
      void client.invalidateQueries({ queryKey: [ADMIN_KEYS.verifications] });
      refreshCounters();
      onDecided(decided);
    },
  });

  const submit = () => {
    if (!confirm) return;
    if (confirm === 'reject') {
      const result = validateWith(verificationDecisionSchema, { decision: 'reject', reason }, language);
      if (!result.ok) {
        setReasonError(result.errors.reason ?? FIELD_MESSAGES.required[language]);
        return;
      }
    }
    decide.mutate(confirm);
  };

  const f = verification.fields;
  const value = (key: (typeof FIELD_ORDER)[number]): string => {
    if (key === 'currentlyWorking') return f.currentlyWorking ? t('yes') : t('no');
    if (key === 'country') return f.country ? countryName(f.country, i18n.language) : '—';
    if (key === 'howKnown')
      return f.howKnown ? t(`howKnown.${f.howKnown}`, { defaultValue: f.howKnown }) : '—';
    const v = f[key];
    return typeof v === 'string' && v.trim() ? v : '—';
  };
  const pending = verification.status === 'pending';

  return (
    <Modal
      open
      onClose={onClose}
      title={t('verifications.detailTitle', { user: verification.user.user })}
      testId="verification-detail"
      className="modal--wide"
      footer={
        pending ? (
          <div className="button-row">
            <button
              type="button"
              className="button"
              onClick={() => {
                setReasonError(undefined);
                setConfirm('reject');
              }}
              data-testid="verification-reject"
            >
              {t('verifications.reject')}
            </button>
            <button
              type="button"
              className="button button--primary"
              onClick={() => setConfirm('accept')}
              data-testid="verification-accept"
            >
              {t('verifications.accept')}
            </button>
          </div>
        ) : undefined
      }
    >
      <p className="muted">
        {t(`verifications.status.${verification.status}`)} · {t('verifications.sent')}{' '}
        {date(verification.submittedAt)}
        {verification.decidedAt && ` · ${t('verifications.decided')} ${date(verification.decidedAt)}`}
      </p>
      {verification.reason && (
        <Alert tone="info">{`${t('verifications.reason')}: ${verification.reason}`}</Alert>
      )}
      <h3 className="admin-subtitle">{t('verifications.photos')}</h3>
      <p className="muted">
        {t('fields.documentType')}:{' '}
        {verification.documentType ? t(`documentTypes.${verification.documentType}`) : '—'}
      </p>
      <div className="admin-photos">
        {DOCUMENT_SIDES.map((side) =>
          verification.documents.includes(side) ? (
            <DocumentPhoto key={side} id={verification._id} side={side} />
          ) : (
            <figure
              key={side}
              className="admin-photo"
              data-testid={`verification-photo-${side}`}
              data-state="missing"
            >
              <div className="admin-photo__missing">{t('verifications.noPhoto')}</div>
              <figcaption>{t(`sides.${side}`)}</figcaption>
            </figure>
          ),
        )}
      </div>
      <h3 className="admin-subtitle">{t('verifications.application')}</h3>
      <dl className="details admin-details" data-testid="verification-fields">
        <div className="details__row">
          <dt>{t('fields.username')}</dt>
          <dd>@{verification.user.user}</dd>
        </div>
        {FIELD_ORDER.map((key) => (
          <div key={key} className="details__row">
            <dt>{t(`fields.${key}`)}</dt>
            <dd>{value(key)}</dd>
          </div>
        ))}
      </dl>
      <ConfirmModal
        open={confirm !== null}
        title={t(confirm === 'reject' ? 'verifications.rejectTitle' : 'verifications.acceptTitle')}
        onCancel={() => setConfirm(null)}
        onConfirm={submit}
        busy={decide.isPending}
        danger={confirm === 'reject'}
        confirmLabel={t(confirm === 'reject' ? 'verifications.reject' : 'verifications.accept')}
        testId="verification-confirm"
      >
        <p>
          {t(confirm === 'reject' ? 'verifications.rejectText' : 'verifications.acceptText', {
            user: verification.user.user,
          })}
        </p>
        {confirm === 'reject' && (
          <div className={`field${reasonError ? ' field--invalid' : ''}`}>
            <label htmlFor={reasonId}>
              {t('verifications.reason')} <span aria-hidden="true">*</span>
            </label>
            <textarea
              id={reasonId}
              value={reason}
              maxLength={500}
              rows={3}
              required
              placeholder={t('verifications.reasonHint')}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={reasonError ? `${reasonId}-tip` : undefined}
              onChange={(event) => {
                setReason(event.target.value);
                setReasonError(undefined);
              }}
              data-testid="verification-reason"
            />
            {reasonError && (
              <FieldTooltip
                id={`${reasonId}-tip`}
                name="reason"
                hint={t('verifications.reasonHint')}
                error={reasonError}
              />
            )}
          </div>
        )}
        {decide.isError && <Alert>{errorText(decide.error)}</Alert>}
      </ConfirmModal>
    </Modal>
  );
}

function DocumentPhoto({ id, side }: { id: string; side: DocumentSide }) {
  const { t } = useTranslation('admin');
  const image = useDocumentImage(id, side);
  const [large, setLarge] = useState(false);
  return (
    <figure
      className={`admin-photo${large ? ' admin-photo--large' : ''}`}
      data-testid={`verification-photo-${side}`}
      data-state={image.state}
    >
      {image.state === 'loading' && <Loader />}
      {image.state === 'error' && <Alert>{image.message}</Alert>}
      {image.state === 'ready' && (
        <button
          type="button"
          className="admin-photo__button"
          onClick={() => setLarge((v) => !v)}
          aria-pressed={large}
          aria-label={t(large ? 'verifications.smaller' : 'verifications.larger', {
            side: t(`sides.${side}`),
          })}
        >
          <img src={image.url} alt={t(`sides.${side}`)} />
        </button>
      )}
      <figcaption>{t(`sides.${side}`)}</figcaption>
    </figure>
  );
}
