import { CATEGORY_MAX, CATEGORY_TAGS, type CategoryTag } from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { Alert } from '../../ui/Feedback.tsx';

/**
 * A creator's page categories (creator.tags / creator.setTags): up to CATEGORY_MAX checkboxes,
 * each change saved at once; Explore lists creators by them.
 */
export function CategoryPicker() {
  const { t } = useTranslation('content');
  const client = useQueryClient();
  const current = useQuery({ queryKey: ['creator.tags'], queryFn: () => api('creator.tags') });
  const save = useMutation({
    mutationFn: (tags: CategoryTag[]) => api('creator.setTags', { tags }),
    onSuccess: (data) => {
      client.setQueryData(['creator.tags'], data);
      void client.invalidateQueries({ queryKey: ['explore.sections'] });
    },
  });
  const chosen = current.data?.tags ?? [];
  const toggle = (tag: CategoryTag) =>
    save.mutate(chosen.includes(tag) ? chosen.filter((x) => x !== tag) : [...chosen, tag]);
  return (
    <fieldset
      className="category-picker"
      data-testid="category-picker"
      disabled={current.isPending || save.isPending}
    >
      <legend>{t('categoryPicker.title')}</legend>
      <p className="hint">{t('categoryPicker.hint', { count: CATEGORY_MAX })}</p>
      <div className="category-picker__options">
        {CATEGORY_TAGS.map((tag) => (
          <label key={tag} className="category-picker__option">
            <input
              type="checkbox"
              checked={chosen.includes(tag)}
              disabled={!chosen.includes(tag) && chosen.length >= CATEGORY_MAX}
              onChange={() => toggle(tag)}
              data-testid={`category-${tag}`}
            />
            {t(`categories.${tag}`)}
          </label>
        ))}
      </div>
      {(current.isError || save.isError) && <Alert>{errorText(current.error ?? save.error)}</Alert>}
    </fieldset>
  );
}
