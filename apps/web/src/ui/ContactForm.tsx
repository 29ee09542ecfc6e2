import { type ContactRequest, contactRequestSchema } from '@fanverse/contract';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../app/api.ts';
import { useSession } from '../app/session.store.ts';
import { Alert } from './Feedback.tsx';
import { Form, FormError, TextField, useZodForm } from './Form.tsx';

type Kind = NonNullable<ContactRequest['kind']>;

/** Contact, DMCA, content-removal and billing requests, stored for admins (POST /contact). */
export function ContactForm({ kind }: { kind: Kind }) {
  const { t } = useTranslation('pages');
  const user = useSession((s) => s.user);
  const form = useZodForm(contactRequestSchema, {
    name: user?.name ?? '',
    email: user?.email ?? '',
    subject: '',
    message: '',
    kind,
  });
  const mutation = useMutation({
    mutationFn: (body: ContactRequest) => api('contact.send', body),
  });
  if (mutation.isSuccess) {
    return (
      <Alert tone="success" testId="contact-success">
        {t('form.sent', { id: mutation.data.id })}
      </Alert>
    );
  }
  return (
    <Form form={form} onSubmit={mutation.mutateAsync} testId="contact-form" data-kind={kind}>
      <h2>{t(`form.titles.${kind}`)}</h2>
      <FormError />
      <TextField name="name" label={t('form.name')} hint={t('form.nameHint')} required autoComplete="name" />
      <TextField
        name="email"
        type="email"
        label={t('form.email')}
        hint={t('form.emailHint')}
        required
        autoComplete="email"
      />
      <TextField
        name="subject"
        label={t('form.subject')}
        hint={t(`form.subjectHints.${kind}`)}
        required
        maxLength={150}
      />
      <TextField
        kind="textarea"
        name="message"
        label={t('form.message')}
        hint={t(`form.messageHints.${kind}`)}
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
    </Form>
  );
}
