import {
  type ApplyState,
  applyRequestSchema,
  DOCUMENT_SIDES,
  DOCUMENT_TYPES,
  type DocumentSide,
  type DocumentType,
  FIELD_MESSAGES,
} from '@fanverse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { FieldTooltip } from '../../ui/Field.tsx';
import { ControlField, Form, FormError, useZodFormOf } from '../../ui/Form.tsx';
import { APPLY_STATE_KEY } from './applySteps.ts';
import { checkPhoto, fingerprint, PHOTO_ACCEPT } from './photoCheck.ts';
import { StepActions } from './StepActions.tsx';

type Photos = Record<DocumentSide, File | null>;
type Values = { documentType: DocumentType | '' } & Photos;

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
  const form = useZodFormOf<Values, typeof applyRequestSchema>(
    applyRequestSchema,
    { documentType: state.documentType ?? '', front: null, back: null, face: null },
    (values) => ({ step: '3', documentType: values.documentType || undefined }),
    // The files are the form's too: each is required and must be a picture the server takes.
    (values) =>
      Object.fromEntries(
        DOCUMENT_SIDES.map((side) => {
          const file = values[side];
          return [side, file ? (checkPhoto(file, language) ?? undefined) : t('photos.missing')];
        }),
      ),
  );

  const send = useMutation({
    mutationFn: (body: { documentType: DocumentType; photos: Record<DocumentSide, File> }) =>
      api('creator.apply', { step: '3', documentType: body.documentType }, { namedFiles: body.photos }),
    onSuccess: (next) => {
      client.setQueryData(APPLY_STATE_KEY, next);
      onDone();
    },
  });

  const submit = async (values: unknown) => {
    const chosen = form.getValues();
    const photos = Object.fromEntries(DOCUMENT_SIDES.map((side) => [side, chosen[side] as File])) as Record<
      DocumentSide,
      File
    >;
    // The same picture twice (or a selfie alone) is not an identity check.
    const prints = await Promise.all(DOCUMENT_SIDES.map((side) => fingerprint(photos[side])));
    let twice = false;
    DOCUMENT_SIDES.forEach((side, i) => {
      if (prints.indexOf(prints[i] as string) === i) return;
      form.setError(side, { type: 'check', message: FIELD_MESSAGES['document.duplicate'][language] });
      twice = true;
    });
    if (twice) return;
    const { documentType } = values as { documentType: DocumentType };
    await send.mutateAsync({ documentType, photos });
  };

  return (
    <Form form={form} onSubmit={submit} className="form apply-form" testId="apply-step-3">
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
      <FormError />
      <ControlField<DocumentType | ''>
        name="documentType"
        render={({ value, onChange, error }) => (
          <DocumentTypes value={value} onChange={onChange} error={error} />
        )}
      />
      <div className="apply-photos">
        {DOCUMENT_SIDES.map((side) => (
          <ControlField<File | null>
            key={side}
            name={side}
            render={({ value, onChange, error }) => (
              <PhotoSlot
                side={side}
                file={value ?? undefined}
                error={error}
                sent={state.documents[side]}
                onChoose={(file) => {
                  onChange(file ?? null);
                  // A file is checked as soon as it is chosen, not only on submit.
                  void form.trigger(side);
                }}
              />
            )}
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
    </Form>
  );
}

/** The three document types as radio buttons, with the failing-field treatment. */
function DocumentTypes({
  value,
  onChange,
  error,
}: {
  value: DocumentType | '';
  onChange: (type: DocumentType) => void;
  error?: string;
}) {
  const { t } = useTranslation('apply');
  const typeId = useId();
  return (
    <fieldset
      className={`fieldset-plain apply-doc-types field${error ? ' field--invalid' : ''}`}
      data-testid="apply-doc-type"
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? `${typeId}-tip` : undefined}
    >
      <legend className="field__label">
        {t('photos.documentType')} <span aria-hidden="true">*</span>
      </legend>
      <div className="apply-doc-types__options">
        {DOCUMENT_TYPES.map((type) => (
          <label key={type} className={`apply-choice${value === type ? ' is-checked' : ''}`}>
            <input
              type="radio"
              name="documentType"
              value={type}
              checked={value === type}
              onChange={() => onChange(type)}
              data-testid={`apply-doc-type-${type}`}
            />
            <span>{t(`documentTypes.${type}`)}</span>
          </label>
        ))}
      </div>
      {error && (
        <FieldTooltip
          id={`${typeId}-tip`}
          name="documentType"
          hint={t('photos.documentType')}
          error={error}
        />
      )}
    </fieldset>
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
    if (!file || error) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file, error]);

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
