import { LIMITS } from '@fanverse/contract';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { FeatureSoon, Panel } from '../../ui/Feedback.tsx';

/** /post/create, /post/edit/{id} and /{creator}/post/create (creator role only). */
export default function PostEditorPage() {
  const { id } = useParams();
  const { t } = useTranslation('home');
  return (
    <Panel title={id ? t('editor.editTitle') : t('editor.createTitle')} testId="post-editor">
      {id && <p className="muted">{t('post.id', { id })}</p>}
      <FeatureSoon what={t('editor.what', { max: LIMITS.postCharacters })} />
    </Panel>
  );
}
