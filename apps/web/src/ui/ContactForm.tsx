import { type ContactRequest, contactRequestSchema } from '@fanverse/contract';
import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../app/api.ts';
import { useSession } from '../app/session.store.ts';
import { Alert } from './Feedback.tsx';
import { Field } from './Field.tsx';
import { useFormFields } from './useFormFields.ts';

type Kind = NonNullable<ContactRequest['kind']>;

/** Contact, DMCA, content-removal and billing requests, stored for admins (POST /contact). */
export function ContactForm({ kind }: { kind: Kind }) {
  const { t } = useTranslation('pages');
  const language = useSession((s) => s.language);
  const user = useSession((s) => s.user);
  const { values, errors, formError, set, fail, validate } = useFormFields({
    name: user?.name ?? '',
    email: user?.email ?? '',
    subject: '',
    message: '',
  });
  const mutation = useMutation({
    mutationFn: (body: ContactRequest) => api('contact.send', body),
    onError: fail,
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body: ContactRequest = { ...values, kind };
    if (validate(contactRequestSchema, body, language)) mutation.mutate(body);
  };
  if (mutation.isSuccess) {
    return (
      <Alert tone="success" testId="contact-success">
        {t('form.sent', { id: mutation.data.id })}
      </Alert>
    );
  }
  return (
    <form className="form card" onSubmit={onSubmit} noValidate data-testid="contact-form" data-kind={kind}>
      <h2>{t(`form.titles.${kind}`)}</h2>
      {formError && <Alert testId="form-error">{formError}</Alert>}
      <Field
        name="name"
        label={t('form.name')}
        hint={t('form.nameHint')}
        value={values.name}
        onChange={set('name')}
        error={errors.name}
        required
        autoComplete="name"
      />
      <Field
        name="email"
        type="email"
        label={t('form.email')}
        hint={t('form.emailHint')}
        value={values.email}
        onChange={set('email')}
        error={errors.email}
        required
        autoComplete="email"
      />
      <Field
        name="subject"
        label={t('form.subject')}
        hint={t(`form.subjectHints.${kind}`)}
        value={values.subject}
        onChange={set('subject')}
        error={errors.subject}
        required
        maxLength={150}
      />
      <Field
        kind="textarea"
        name="message"
        label={t('form.message')}
        hint={t(`form.messageHints.${kind}`)}
        value={values.message}
        onChange={set('message')}
        error={errors.message}
        required
        maxLength={4000}
      />
      <button
        type="submit"
        className="button button--primary"
        disabled={mutation.isPending}
        data-testid="contact-submit"
      >
        {mutation.isPending ? t('form.sending') : t('form.send')}
      </button>
    </form>
  );
}
