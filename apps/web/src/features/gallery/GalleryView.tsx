import type { Media } from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { isCreator, useSession } from '../../app/session.store.ts';
import { ConfirmModal } from '../../ui/Confirm.tsx';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { feedPosts, usePostsFeed } from '../feed/usePostsFeed.ts';
import { Visor } from '../post/Visor.tsx';

/** The owner's new category: a name and some of the own media (the first is the image). */
function NewCategory({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('content');
  const client = useQueryClient();
  const me = useSession((s) => s.user?.user ?? '');
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const own = usePostsFeed({ creator: me, limit: 50 });
  const media: Media[] = feedPosts(own.data).flatMap((post) =>
    post.media.filter((m) => m.type === 'image' && m.status === 'ready' && (m.thumb || m.src)),
  );
  const save = useMutation({
    mutationFn: () => api('gallery.saveCategory', { name: name.trim(), media: chosen }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['gallery.get'] });
      onClose();
    },
  });
  const toggle = (id: string) =>
    setChosen((list) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]));
  return (
    <Modal open onClose={onClose} title={t('gallery.newTitle')} testId="gallery-new-dialog">
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <label className="field">
          <span className="field__label">{t('gallery.name')}</span>
          <input value={name} maxLength={60} onChange={(e) => setName(e.target.value)} required />
        </label>
        <fieldset className="fieldset-plain">
          <legend className="field__label">{t('gallery.pick')}</legend>
          {own.isPending ? (
            <Loader />
          ) : media.length === 0 ? (
            <p className="muted">{t('gallery.noMedia')}</p>
          ) : (
            <div className="gallery-pick">
              {media.map((m) => (
                <label
                  key={m._id}
                  className={`gallery-pick__item${chosen.includes(m._id) ? ' is-chosen' : ''}`}
                >
                  <input type="checkbox" checked={chosen.includes(m._id)} onChange={() => toggle(m._id)} />
                  <img src={m.thumb ?? m.src ?? ''} alt="" />
                </label>
              ))}
            </div>
          )}
        </fieldset>
        {save.isError && <Alert>{errorText(save.error)}</Alert>}
        <button
          type="submit"
          className="button button--primary"
          disabled={!name.trim() || chosen.length === 0 || save.isPending}
          data-testid="gallery-create"
        >
          {t('gallery.create')}
        </button>
      </form>
    </Modal>
  );
}

/** Gallery categories (name, image) of a creator, or the own gallery; the owner manages them. */
export function Gallery({ creator }: { creator?: string }) {
  const { t } = useTranslation('content');
  const user = useSession((s) => s.user);
  const client = useQueryClient();
  const owner = isCreator(user) && (!creator || creator.toLowerCase() === user?.user.toLowerCase());
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [visor, setVisor] = useState<{ media: Media[]; index: number } | null>(null);
  const gallery = useQuery({
    queryKey: ['gallery.get', creator ?? ''],
    queryFn: () => api('gallery.get', creator ? { creator } : {}),
  });
  const remove = useMutation({
    mutationFn: (id: string) => api('gallery.deleteCategory', undefined, { params: { id } }),
    onSuccess: () => {
      setDeleting(null);
      void client.invalidateQueries({ queryKey: ['gallery.get'] });
    },
  });
  if (gallery.isPending) return <Loader />;
  if (gallery.isError) return <Alert>{errorText(gallery.error)}</Alert>;
  const { categories } = gallery.data;
  return (
    <div className="gallery">
      {owner && (
        <button type="button" className="button" onClick={() => setCreating(true)} data-testid="gallery-new">
          {t('gallery.new')}
        </button>
      )}
      {categories.length === 0 ? (
        <p className="empty-state">{t('gallery.empty')}</p>
      ) : (
        <ul className="gallery-grid">
          {categories.map((category) => {
            const image = category.image ?? category.items[0]?.thumb ?? category.items[0]?.blur ?? null;
            return (
              <li key={category._id} className="gallery-category" data-testid="gallery-category">
                <button
                  type="button"
                  className="gallery-category__open"
                  // Every picture opens in the media viewer; locked ones show their blurred preview.
                  onClick={() => setVisor({ media: category.items, index: 0 })}
                  disabled={category.items.length === 0}
                  data-testid="gallery-category-open"
                >
                  {image ? <img src={image} alt="" /> : <span className="gallery-category__empty" />}
                  <span className="gallery-category__name">
                    {category.name}{' '}
                    <span className="muted">{t('gallery.items', { count: category.items.length })}</span>
                  </span>
                </button>
                {owner && (
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => setDeleting(category._id)}
                    data-testid="gallery-delete"
                  >
                    {t('gallery.delete')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {creating && <NewCategory onClose={() => setCreating(false)} />}
      <ConfirmModal
        open={deleting !== null}
        title={t('gallery.deleteTitle')}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
        busy={remove.isPending}
        danger
      >
        <p>{t('gallery.deleteText')}</p>
        {remove.isError && <Alert>{errorText(remove.error)}</Alert>}
      </ConfirmModal>
      <Visor
        media={visor?.media ?? []}
        index={visor ? visor.index : null}
        onIndex={(index) => setVisor((v) => (v && index !== null ? { ...v, index } : null))}
      />
    </div>
  );
}

/** ?feed=gallery: the own gallery of a creator, or the gallery of the creator in `creator`. */
export function GalleryView({ creator }: { creator?: string }) {
  const { t } = useTranslation('content');
  return (
    <section className="panel" data-testid="view-feed-gallery">
      <h1 className="panel__title">{t('gallery.title')}</h1>
      <Gallery creator={creator} />
    </section>
  );
}
