import {
  type ApplyState,
  DOCUMENT_SIDES,
  DOCUMENT_TYPES,
  type DocumentSide,
  type DocumentType,
  FIELD_MESSAGES,
} from '@fanverse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { FieldTooltip } from '../../ui/Field.tsx';
import { type FieldErrors, serverFieldErrors } from '../../ui/formErrors.ts';
import { APPLY_STATE_KEY } from './applySteps.ts';
import { checkPhoto, fingerprint, PHOTO_ACCEPT } from './photoCheck.ts';
import { StepActions } from './StepActions.tsx';

type Photos = Partial<Record<DocumentSide, File>>;

/** Step 3: the document type and the three identity photos (spec §3, §5), all sent together. */
export function PhotosStep({
  state,
  onDone,
  onBack,
}: {
  state: ApplyState;
  onDone: () => void;
  onBack: () => void;
}) {
  const { t } = useTranslation('apply');
  const language = useSession((s) => s.language);
  const client = useQueryClient();
  const [documentType, setDocumentType] = useState<DocumentType | ''>(state.documentType ?? '');
  const [photos, setPhotos] = useState<Photos>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const typeId = useId();

  const send = useMutation({
    mutationFn: (body: { documentType: DocumentType; photos: Required<Photos> }) =>
      api('creator.apply', { step: '3', documentType: body.documentType }, { namedFiles: body.photos }),
    onSuccess: (next) => {
      client.setQueryData(APPLY_STATE_KEY, next);
      onDone();
    },
    onError: (error) => setErrors(serverFieldErrors(error)),
  });

  const choose = (side: DocumentSide, file: File | undefined) => {
    setErrors(({ [side]: _, _photos: __, ...rest }) => rest);
    if (!file) return;
    const problem = checkPhoto(file, language);
    if (problem) {
      setErrors((e) => ({ ...e, [side]: problem }));
      setPhotos(({ [side]: _, ...rest }) => rest);
      return;
    }
    setPhotos((p) => ({ ...p, [side]: file }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const next: FieldErrors = {};
    if (!documentType) next.documentType = FIELD_MESSAGES.required[language];
    for (const side of DOCUMENT_SIDES) if (!photos[side]) next[side] = t('photos.missing');
    if (Object.keys(next).length === 0) {
      // The same picture twice (or a selfie alone) is not an identity check.
      const prints = await Promise.all(DOCUMENT_SIDES.map((side) => fingerprint(photos[side] as File)));
      DOCUMENT_SIDES.forEach((side, i) => {
        if (prints.indexOf(prints[i] as string) !== i)
          next[side] = FIELD_MESSAGES['document.duplicate'][language];
      });
    }
    if (Object.keys(next).length > 0 || !documentType) {
      setErrors(next);
      return;
    }
    send.mutate({ documentType, photos: photos as Required<Photos> });
  };

  const serverOnly = send.isError && Object.keys(serverFieldErrors(send.error)).length === 0;
  return (
    <form className="form apply-form" onSubmit={onSubmit} noValidate data-testid="apply-step-3">
      <h2>{t('photos.title')}</h2>
      <p>{t('photos.intro')}</p>
      <p className="apply-notice" data-testid="apply-selfie-notice">
        {t('photos.selfie')}
      </p>
      {state.status === 'rejected' && state.reason && (
        <Alert tone="info" testId="apply-rejected-reason">
          {t('rejected.reasonLabel')}: {state.reason}
        </Alert>
      )}
      {serverOnly && <Alert>{errorText(send.error)}</Alert>}
      <fieldset
        className={`fieldset-plain apply-doc-types field${errors.documentType ? ' field--invalid' : ''}`}
        data-testid="apply-doc-type"
        aria-invalid={errors.documentType ? true : undefined}
        aria-describedby={errors.documentType ? `${typeId}-tip` : undefined}
      >
        <legend className="field__label">
          {t('photos.documentType')} <span aria-hidden="true">*</span>
        </legend>
        <div className="apply-doc-types__options">
          {DOCUMENT_TYPES.map((type) => (
            <label key={type} className={`apply-choice${documentType === type ? ' is-checked' : ''}`}>
              <input
                type="radio"
                name="documentType"
                value={type}
                checked={documentType === type}
                onChange={() => {
                  setDocumentType(type);
                  setErrors(({ documentType: _, ...rest }) => rest);
                }}
                data-testid={`apply-doc-type-${type}`}
              />
              <span>{t(`documentTypes.${type}`)}</span>
            </label>
          ))}
        </div>
        {errors.documentType && (
          <FieldTooltip
            id={`${typeId}-tip`}
            name="documentType"
            hint={t('photos.documentType')}
            error={errors.documentType}
          />
        )}
      </fieldset>
      <div className="apply-photos">
        {DOCUMENT_SIDES.map((side) => (
          <PhotoSlot
            key={side}
            side={side}
            file={photos[side]}
            error={errors[side]}
            sent={state.documents[side]}
            onChoose={(file) => choose(side, file)}
          />
        ))}
      </div>
      <StepActions
        onBack={onBack}
        busy={send.isPending}
        label={t('photos.submit')}
        busyLabel={t('sending')}
        testId="apply-submit"
      />
    </form>
  );
}

/** One photo slot with a preview; the object URL is revoked when replaced or unmounted. */
function PhotoSlot({
  side,
  file,
  error,
  sent,
  onChoose,
}: {
  side: DocumentSide;
  file: File | undefined;
  error?: string;
  sent: boolean;
  onChoose: (file: File | undefined) => void;
}) {
  const { t } = useTranslation('apply');
  const id = useId();
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  return (
    <div className={`apply-photo field${error ? ' field--invalid' : ''}`} data-side={side}>
      <label htmlFor={id} className="apply-photo__drop">
        {preview ? (
          <img
            src={preview}
            alt={t('photos.preview', { side: t(`sides.${side}`) })}
            className="apply-photo__img"
          />
        ) : (
          <span className="apply-photo__empty" aria-hidden="true">
            {side === 'face' ? '🪪🙂' : '🪪'}
          </span>
        )}
        <span className="apply-photo__title">{t(`sides.${side}`)} *</span>
        <span className="apply-photo__hint">{t(`sideHints.${side}`)}</span>
        <span className="button button--small apply-photo__button">
          {file ? t('photos.change') : t('photos.choose')}
        </span>
        {sent && !file && <span className="muted apply-photo__sent">{t('photos.sentBefore')}</span>}
      </label>
      <input
        id={id}
        type="file"
        accept={PHOTO_ACCEPT}
        className="sr-only"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-tip` : undefined}
        onChange={(event) => {
          onChoose(event.target.files?.[0]);
          event.target.value = '';
        }}
        data-testid={`apply-photo-${side}`}
      />
      {file && <span className="apply-photo__name">{file.name}</span>}
      {error && <FieldTooltip id={`${id}-tip`} name={side} hint={t(`sides.${side}`)} error={error} />}
    </div>
  );
}
