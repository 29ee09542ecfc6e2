import { type AnnouncementRequest, announcementRequestSchema, LIMITS } from '@fanverse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { Form, FormError, TextField, useZodForm } from '../../ui/Form.tsx';

/**
 * An announcement to everyone (ADR 0033): administrators publish a free post on the admin
 * creator's page (POST /admin/announcement); it is on every home feed at once.
 */
export function AnnouncementForm() {
  const { t } = useTranslation('admin');
  const official = useSession((s) => s.app?.adminUser ?? '');
  const client = useQueryClient();
  const form = useZodForm(announcementRequestSchema, { message: '' });
  const publish = useMutation({
    mutationFn: (body: AnnouncementRequest) => api('admin.announce', body),
    onSuccess: () => {
      form.reset({ message: '' });
      void client.invalidateQueries({ queryKey: ['posts.list'] });
    },
  });
  return (
    <section className="admin-home__settings" aria-labelledby="announcement-title">
      <h2 id="announcement-title" className="admin-subtitle">
        {t('announcement.title')}
      </h2>
      <p className="muted">{t('announcement.intro', { handle: official })}</p>
      <Form form={form} onSubmit={publish.mutateAsync} testId="announcement-form">
        <FormError />
        <TextField
          kind="textarea"
          name="message"
          label={t('announcement.label')}
          required
          maxLength={LIMITS.postCharacters}
        />
        <button
          type="submit"
          className="button button--primary"
          disabled={publish.isPending}
          data-testid="announcement-publish"
        >
          {t('announcement.publish')}
        </button>
      </Form>
      {publish.isSuccess && (
        <Alert tone="success" testId="announcement-done">
          {t('announcement.done')} <Link to={`/post/${publish.data.post._id}`}>{t('announcement.view')}</Link>
        </Alert>
      )}
    </section>
  );
}
