import {
  type CaptionLanguage,
  LIMITS,
  type Media,
  type Post,
  PREVIEW_SECONDS,
  postFieldsSchema,
  type Visibility,
} from '@fanverse/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { getSocket } from '../../app/socket.ts';
import { ConfirmModal } from '../../ui/Confirm.tsx';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Field, FieldTooltip } from '../../ui/Field.tsx';
import { type FieldErrors, serverFieldErrors, validateWith } from '../../ui/formErrors.ts';
import { Switch } from '../../ui/Switch.tsx';
import { ContentIcon } from '../feed/ContentIcon.tsx';
import { VaultPicker } from '../vault/VaultPicker.tsx';
import { CaptionsPicker, type PendingCaptions } from './CaptionsPicker.tsx';
import { localZone, toLocalInput } from './localTime.ts';
import { ACCEPT, checkPictureDecodes, checkUpload, fileKind } from './uploadCheck.ts';

interface NewFile {
  key: string;
  file: File;
  url: string;
  kind: 'image' | 'video';
}

type Preview = { kind: 'new'; item: NewFile } | { kind: 'kept'; media: Media };

function newUploadId(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** /post/create, /{creator}/post/create and /post/edit/{id} (creator role only). */
export default function PostEditorPage() {
  const { id } = useParams();
  const { t } = useTranslation('content');
  const location = useLocation();
  const post = useQuery({
    queryKey: ['posts.edit', id],
    queryFn: () => api('posts.list', { post: id }),
    enabled: !!id,
  });
  if (id && post.isPending) return <Loader page />;
  if (id && post.isError) return <Alert>{errorText(post.error)}</Alert>;
  const existing = post.data?.posts[0] ?? null;
  if (id && !existing) return <Alert>{t('post.notFound')}</Alert>;
  // Captions that could not be stored with a new post: its edit page says so (ADR 0037).
  const captionsError = (location.state as { captionsError?: string } | null)?.captionsError ?? null;
  return <PostEditor key={`${id ?? 'new'}-${location.key}`} post={existing} captionsError={captionsError} />;
}

function FileMenu({ label, onRemove }: { label: string; onRemove: () => void }) {
  const { t } = useTranslation('content');
  const [open, setOpen] = useState(false);
  return (
    <div className="file-menu">
      <button
        type="button"
        className="icon-button icon-button--plain file-menu__button"
        aria-expanded={open}
        aria-label={t('editor.fileMenu', { name: label })}
        onClick={() => setOpen((v) => !v)}
        data-testid="editor-file-menu"
      >
        <ContentIcon name="more" />
      </button>
      {open && (
        <div className="popover file-menu__list">
          <button
            type="button"
            className="menu-list__item menu-list__item--danger"
            onClick={() => {
              setOpen(false);
              onRemove();
            }}
            data-testid="editor-file-remove"
          >
            {t('editor.removeFile')}
          </button>
        </div>
      )}
    </div>
  );
}

function PostEditor({ post, captionsError }: { post: Post | null; captionsError: string | null }) {
  const { t } = useTranslation(['content', 'video']);
  const navigate = useNavigate();
  const client = useQueryClient();
  const [params] = useSearchParams();
  const language = useSession((s) => s.language);
  const uploadLimits = useSession((s) => s.app?.features.uploadLimits);
  const me = useSession((s) => s.user?.user ?? '');
  const ids = useId();
  const fileInput = useRef<HTMLInputElement>(null);

  const [kind, setKind] = useState<'post' | 'story'>(
    post?.kind ?? (params.get('kind') === 'story' ? 'story' : 'post'),
  );
  const [message, setMessage] = useState(post?.message ?? '');
  const [visibility, setVisibility] = useState<Visibility>(post?.visibility ?? 'free');
  const [price, setPrice] = useState(post && post.price > 0 ? String(post.price) : '');
  const [discountOn, setDiscountOn] = useState(post?.discountStatus === 'on');
  const [discountPercent, setDiscountPercent] = useState(post ? String(post.discountPercent || '') : '');
  const [discountDate, setDiscountDate] = useState(post?.discountDateLimit?.slice(0, 10) ?? '');
  // Free preview of locked videos (seconds; applies to the videos uploaded with this form).
  const [previewSeconds, setPreviewSeconds] = useState('0');
  const [certs, setCerts] = useState({ certifyAdults: false, certifyConsent: false, certifyTerms: false });
  const [files, setFiles] = useState<NewFile[]>([]);
  const [kept, setKept] = useState<Media[]>(post?.media ?? []);
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(
    captionsError ? t('video:editor.failed', { reason: captionsError }) : null,
  );
  // Captions chosen per video (new file key or kept media id), sent once the post is stored.
  const [captions, setCaptions] = useState<Record<string, PendingCaptions>>({});
  const [storedCaptions, setStoredCaptions] = useState<Record<string, CaptionLanguage[]>>(() =>
    Object.fromEntries((post?.media ?? []).map((m) => [m._id, m.captions])),
  );
  const [removing, setRemoving] = useState<Preview | null>(null);
  const [dragging, setDragging] = useState(false);
  const [progress, setProgress] = useState<{ percent: number; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // Scheduled publication, in the creator's own time zone (datetime-local is local time).
  const [scheduleOn, setScheduleOn] = useState(!!post?.publishAt && Date.parse(post.publishAt) > Date.now());
  const [publishAt, setPublishAt] = useState(post?.publishAt ? toLocalInput(post.publishAt) : '');
  // A post whose files failed: the next submit retries it (same post), never a second one.
  const [retryId, setRetryId] = useState<string | null>(null);
  const upload = useRef<{ uploadId: string; postId: string | null; ended: string | null } | null>(null);

  // Free the object URLs of removed previews and on leaving.
  const filesRef = useRef(files);
  filesRef.current = files;
  useEffect(
    () => () => {
      for (const f of filesRef.current) URL.revokeObjectURL(f.url);
    },
    [],
  );

  // Socket progress of this upload: percent only grows; end opens the post; error unlocks the form.
  useEffect(() => {
    const socket = getSocket();
    if (!socket) return;
    const onProgress = (p: { percent: number; message: string; uploadId?: string; postId?: string }) => {
      const current = upload.current;
      if (!current) return;
      if (p.uploadId && p.uploadId !== current.uploadId) return;
      if (!p.uploadId && p.postId && current.postId && p.postId !== current.postId) return;
      setProgress((old) => ({ percent: Math.max(old?.percent ?? 0, p.percent), message: p.message }));
    };
    const onEnd = ({ postId }: { postId: string }) => {
      const current = upload.current;
      if (!current) return;
      if (current.postId && current.postId !== postId) return;
      current.ended = postId;
      setProgress({ percent: 100, message: 'done' });
      if (current.postId) finish(postId);
    };
    const onError = ({ message: text, postId }: { message: string; postId?: string }) => {
      const current = upload.current;
      if (!current) return;
      if (postId && current.postId && postId !== current.postId) return;
      upload.current = null;
      setBusy(false);
      setProgress(null);
      setFailure(text);
      if (postId) setRetryId(postId);
    };
    socket.on('postProgress', onProgress);
    socket.on('postProgressEnd', onEnd);
    socket.on('postProgressError', onError);
    return () => {
      socket.off('postProgress', onProgress);
      socket.off('postProgressEnd', onEnd);
      socket.off('postProgressError', onError);
    };
  });

  /** Sends the chosen captions of the stored post's videos; the first error, or null. */
  const sendCaptions = async (saved: Post): Promise<string | null> => {
    const keptIds = new Set(kept.map((m) => m._id));
    const added = saved.media.filter((m) => !keptIds.has(m._id));
    const target = (key: string): string | null => {
      if (keptIds.has(key)) return key;
      const index = files.findIndex((f) => f.key === key);
      // New files follow the kept ones in upload order (unless the server merged a duplicate).
      return index >= 0 && added.length === files.length ? (added[index]?._id ?? null) : null;
    };
    for (const [key, track] of Object.entries(captions)) {
      const id = target(key);
      if (!id) continue;
      try {
        await api(
          'media.captions.put',
          { language: track.language, name: track.name, text: track.text },
          { params: { id } },
        );
      } catch (error) {
        return errorText(error);
      }
    }
    return null;
  };

  const removeStoredCaptions = async (mediaId: string, language: CaptionLanguage) => {
    try {
      const res = await api('media.captions.delete', undefined, { params: { id: mediaId, language } });
      setStoredCaptions((old) => ({ ...old, [mediaId]: res.captions }));
    } catch (error) {
      setFailure(errorText(error));
    }
  };

  const finish = (postId: string) => {
    upload.current = null;
    void client.invalidateQueries({ queryKey: ['posts.list'] });
    void client.invalidateQueries({ queryKey: ['posts.edit'] });
    void client.invalidateQueries({ queryKey: ['stories.list'] });
    navigate(`/post/${postId}`);
  };

  const addFiles = async (list: FileList | File[]) => {
    const problems: string[] = [];
    const added: NewFile[] = [];
    for (const file of Array.from(list)) {
      const type = fileKind(file);
      const problem =
        checkUpload(file, language, uploadLimits) ??
        (type === 'image' ? await checkPictureDecodes(file, language) : null);
      if (problem || !type) {
        problems.push(problem ?? file.name);
        continue;
      }
      added.push({
        key: `${file.name}-${file.size}-${Math.random()}`,
        file,
        url: URL.createObjectURL(file),
        kind: type,
      });
    }
    setFileErrors(problems);
    setFiles((old) => [...old, ...added]);
  };

  const confirmRemove = () => {
    if (!removing) return;
    if (removing.kind === 'new') {
      URL.revokeObjectURL(removing.item.url);
      setFiles((old) => old.filter((f) => f.key !== removing.item.key));
    } else {
      setKept((old) => old.filter((m) => m._id !== removing.media._id));
    }
    setRemoving(null);
  };

  const lockedVideo = kind === 'post' && visibility !== 'free' && files.some((f) => f.kind === 'video');

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const values = {
      message,
      kind,
      visibility,
      price: visibility === 'ppv' ? price || '0' : '0',
      discountStatus: discountOn ? 'on' : 'off',
      discountPercent: discountOn ? discountPercent || '0' : '0',
      discountDateLimit: discountOn ? discountDate : '',
      publishAt: scheduleOn && publishAt ? new Date(publishAt).toISOString() : '',
      previewSeconds: lockedVideo ? previewSeconds : '0',
      ...certs,
    };
    const checked = validateWith(postFieldsSchema, values, language);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    if (scheduleOn && (!publishAt || new Date(publishAt).getTime() <= Date.now())) {
      setErrors({ publishAt: t('editor.schedulePast') });
      return;
    }
    if (!message.trim() && files.length + kept.length === 0) {
      setErrors({ message: t('editor.empty') });
      return;
    }
    setErrors({});
    const uploadId = newUploadId();
    upload.current = { uploadId, postId: null, ended: null };
    setBusy(true);
    setProgress(files.length > 0 ? { percent: 0, message: 'upload' } : null);
    const fields = {
      message: message.trim(),
      kind,
      visibility,
      price: visibility === 'ppv' ? Number(price) : 0,
      discountStatus: discountOn ? ('on' as const) : ('off' as const),
      discountPercent: discountOn ? Number(discountPercent || 0) : 0,
      discountDateLimit: discountOn && discountDate ? discountDate : undefined,
      publishAt: scheduleOn && publishAt ? new Date(publishAt).toISOString() : '',
      previewSeconds: lockedVideo ? Number(previewSeconds) : 0,
      certifyAdults: true,
      certifyConsent: true,
      certifyTerms: true,
      // A retry replaces the files of the failed post with the ones in the form now.
      keepMedia: retryId ? '' : post ? kept.map((m) => m._id).join(',') : undefined,
      // Vault files the post does not hold yet (on a retry, every attached one).
      vaultMedia: kept
        .filter((m) => retryId || !post?.media.some((p) => p._id === m._id))
        .map((m) => m._id)
        .join(','),
      uploadId,
    };
    const blobs = files.map((f) => f.file);
    try {
      const editing = retryId ?? post?._id;
      const result = editing
        ? await api('posts.update', fields, { params: { id: editing }, files: blobs })
        : await api('posts.create', fields, { files: blobs });
      const captionsFailed = await sendCaptions(result.post);
      if (captionsFailed) {
        // The post is stored: its edit page shows why the captions were not, to add them again.
        upload.current = null;
        void client.invalidateQueries({ queryKey: ['posts.edit'] });
        navigate(`/post/edit/${result.post._id}`, { state: { captionsError: captionsFailed } });
        return;
      }
      const current = upload.current;
      if (!current) return; // an error arrived over the socket meanwhile
      current.postId = result.post._id;
      const processing = result.post.media.some((m) => m.status === 'processing');
      if (current.ended === result.post._id || !processing || files.length === 0 || !getSocket()?.connected) {
        finish(result.post._id);
      }
    } catch (error) {
      upload.current = null;
      setBusy(false);
      setProgress(null);
      setErrors(serverFieldErrors(error));
      setFailure(errorText(error));
    }
  };

  const previews: Preview[] = [
    ...kept.map((media): Preview => ({ kind: 'kept', media })),
    ...files.map((item): Preview => ({ kind: 'new', item })),
  ];
  const certLabels = [
    ['certifyAdults', 'adults'],
    ['certifyConsent', 'consent'],
    ['certifyTerms', 'terms'],
  ] as const;

  return (
    <section className="panel editor" data-testid="post-editor">
      <h1 className="panel__title">{post ? t('editor.editTitle') : t('editor.createTitle')}</h1>
      <p className="alert alert--info" data-testid="editor-review-notice">
        {t('editor.reviewNotice')}
      </p>
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <fieldset className="fieldset-plain" disabled={busy}>
          <fieldset className="fieldset-plain segmented">
            <legend className="field__label">{t('editor.kind')}</legend>
            {(['post', 'story'] as const).map((value) => (
              <label key={value} className={`segmented__item${kind === value ? ' is-active' : ''}`}>
                <input
                  type="radio"
                  name={`${ids}-kind`}
                  value={value}
                  checked={kind === value}
                  onChange={() => setKind(value)}
                  disabled={!!post}
                  data-testid={`editor-kind-${value}`}
                />
                {t(`editor.kinds.${value}`)}
              </label>
            ))}
          </fieldset>

          <div className={`field editor__message${errors.message ? ' field--invalid' : ''}`}>
            <label htmlFor={`${ids}-message`}>{t('editor.message')}</label>
            <textarea
              id={`${ids}-message`}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              maxLength={LIMITS.postCharacters}
              placeholder={t('editor.messageHint')}
              rows={4}
              aria-invalid={errors.message ? true : undefined}
              aria-describedby={`${ids}-count${errors.message ? ` ${ids}-message-tip` : ''}`}
              data-testid="editor-message"
            />
            <span
              id={`${ids}-count`}
              className={`char-count${message.length >= LIMITS.postCharacters ? ' is-full' : ''}`}
              data-testid="editor-counter"
            >
              {t('editor.counter', { count: message.length, max: LIMITS.postCharacters })}
            </span>
            {errors.message && (
              <FieldTooltip
                id={`${ids}-message-tip`}
                name="message"
                hint={t('editor.messageHint')}
                error={errors.message}
              />
            )}
          </div>

          {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a pointer shortcut; the button inside picks files by keyboard. */}
          <div
            className={`drop-zone${dragging ? ' is-dragging' : ''}${errors.files ? ' is-invalid' : ''}`}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={(e) => {
              e.preventDefault();
              setDragging(false);
              void addFiles(e.dataTransfer.files);
            }}
          >
            <p>{kind === 'story' ? t('editor.dropStory') : t('editor.drop')}</p>
            <div className="button-row">
              <button type="button" className="button" onClick={() => fileInput.current?.click()}>
                {t('editor.chooseFiles')}
              </button>
              {/* Files already uploaded, attached by id without a new upload (ADR 0032). */}
              <VaultPicker
                max={kind === 'story' ? 1 : undefined}
                onPick={(items) =>
                  setKept((old) => [
                    ...(kind === 'story' ? [] : old),
                    ...items.map((i) => i.media).filter((m) => !old.some((o) => o._id === m._id)),
                  ])
                }
                testId="editor-vault"
              />
            </div>
            <input
              ref={fileInput}
              type="file"
              multiple={kind === 'post'}
              accept={ACCEPT}
              className="sr-only"
              tabIndex={-1}
              aria-label={t('editor.chooseFiles')}
              onChange={(e) => {
                if (e.target.files) void addFiles(Array.from(e.target.files));
                e.target.value = '';
              }}
              data-testid="editor-files"
            />
            {errors.files && <p className="field-error">{errors.files}</p>}
          </div>
          {fileErrors.length > 0 && (
            <div className="alert alert--error" role="alert" data-testid="editor-file-errors">
              {fileErrors.map((text) => (
                <p key={text}>{text}</p>
              ))}
            </div>
          )}
          {previews.length > 0 && (
            <ul className="editor__previews" data-testid="editor-previews">
              {previews.map((preview) => {
                const key = preview.kind === 'new' ? preview.item.key : preview.media._id;
                const isVideo =
                  preview.kind === 'new' ? preview.item.kind === 'video' : preview.media.type === 'video';
                const src =
                  preview.kind === 'new'
                    ? preview.item.url
                    : (preview.media.thumb ?? preview.media.poster ?? preview.media.blur ?? '');
                const label = preview.kind === 'new' ? preview.item.file.name : t('editor.attached');
                return (
                  <li
                    key={key}
                    className={`editor__preview${isVideo ? ' editor__preview--video' : ''}`}
                    data-testid="editor-preview"
                  >
                    {isVideo && preview.kind === 'new' ? (
                      <video src={src} muted playsInline preload="metadata" />
                    ) : src ? (
                      <img src={src} alt="" />
                    ) : (
                      <span className="editor__preview-empty">{label}</span>
                    )}
                    <span className="editor__preview-name">{label}</span>
                    <FileMenu label={label} onRemove={() => setRemoving(preview)} />
                    {isVideo && kind === 'post' && (
                      <CaptionsPicker
                        videoName={label}
                        pending={captions[key] ?? null}
                        existing={
                          preview.kind === 'kept' ? (storedCaptions[key] ?? preview.media.captions) : []
                        }
                        onChange={(next) =>
                          setCaptions((old) => {
                            const { [key]: _drop, ...rest } = old;
                            return next ? { ...rest, [key]: next } : rest;
                          })
                        }
                        onRemoveExisting={
                          preview.kind === 'kept' && post?.media.some((m) => m._id === key)
                            ? (language) => void removeStoredCaptions(key, language)
                            : undefined
                        }
                      />
                    )}
                  </li>
                );
              })}
            </ul>
          )}

          {kind === 'post' && (
            <>
              <fieldset className="fieldset-plain segmented" data-testid="editor-visibility">
                <legend className="field__label">{t('editor.visibility')}</legend>
                {(['free', 'subscribers', 'ppv'] as const).map((value) => (
                  <label key={value} className={`segmented__item${visibility === value ? ' is-active' : ''}`}>
                    <input
                      type="radio"
                      name={`${ids}-visibility`}
                      value={value}
                      checked={visibility === value}
                      onChange={() => setVisibility(value)}
                      data-testid={`editor-visibility-${value}`}
                    />
                    {t(`visibility.${value}`)}
                  </label>
                ))}
              </fieldset>
              {visibility === 'ppv' && (
                <div data-testid="editor-price">
                  <Field
                    name="price"
                    type="number"
                    inputMode="numeric"
                    label={t('editor.price')}
                    hint={t('editor.priceHint')}
                    value={price}
                    onChange={setPrice}
                    error={errors.price}
                    required
                  />
                </div>
              )}
              {lockedVideo && (
                <div data-testid="editor-preview">
                  <Field
                    kind="select"
                    name="previewSeconds"
                    label={t('editor.preview')}
                    hint={t('editor.previewHint')}
                    value={previewSeconds}
                    onChange={setPreviewSeconds}
                    error={errors.previewSeconds}
                  >
                    {PREVIEW_SECONDS.map((s) => (
                      <option key={s} value={String(s)}>
                        {s === 0 ? t('editor.previewNone') : t('editor.previewSeconds', { count: s })}
                      </option>
                    ))}
                  </Field>
                </div>
              )}
              <div className="editor__discount">
                <Switch
                  label={t('editor.discount')}
                  checked={discountOn}
                  onChange={setDiscountOn}
                  testId="editor-discount"
                />
                {discountOn && (
                  <div className="editor__row">
                    <Field
                      name="discountPercent"
                      type="number"
                      inputMode="numeric"
                      label={t('editor.discountPercent')}
                      value={discountPercent}
                      onChange={setDiscountPercent}
                      error={errors.discountPercent}
                    />
                    <Field
                      name="discountDateLimit"
                      type="date"
                      label={t('editor.discountDate')}
                      value={discountDate}
                      onChange={setDiscountDate}
                      error={errors.discountDateLimit}
                    />
                  </div>
                )}
              </div>
            </>
          )}

          <div className="editor__schedule" data-testid="editor-schedule">
            <Switch
              label={t('editor.schedule')}
              checked={scheduleOn}
              onChange={setScheduleOn}
              testId="editor-schedule-toggle"
            />
            {scheduleOn && (
              <>
                <Field
                  name="publishAt"
                  type="datetime-local"
                  label={t('editor.publishAt')}
                  value={publishAt}
                  onChange={setPublishAt}
                  error={errors.publishAt}
                  required
                />
                <p className="muted">{t('editor.publishAtHint', { zone: localZone() })}</p>
              </>
            )}
          </div>

          <fieldset className="fieldset-plain certifications">
            <legend className="field__label">{t('editor.certifications')}</legend>
            {certLabels.map(([field, short]) => (
              <div key={field} className={`field field--checkbox${errors[field] ? ' field--invalid' : ''}`}>
                <input
                  id={`${ids}-${field}`}
                  type="checkbox"
                  checked={certs[field]}
                  onChange={(e) => {
                    const checked = e.target.checked;
                    setCerts((c) => ({ ...c, [field]: checked }));
                    if (checked) setErrors(({ [field]: _, ...rest }) => rest);
                  }}
                  aria-invalid={errors[field] ? true : undefined}
                  required
                  data-testid={`editor-cert-${short}`}
                />
                <label htmlFor={`${ids}-${field}`}>
                  {t(`editor.cert.${short}`)}
                  {short === 'terms' && (
                    <>
                      {' '}
                      (<Link to="/terms">{t('editor.termsLink')}</Link>)
                    </>
                  )}
                </label>
                {errors[field] && (
                  <span className="field-error" role="alert">
                    {t('editor.certRequired')}
                  </span>
                )}
              </div>
            ))}
          </fieldset>
        </fieldset>

        {failure && <Alert testId="editor-error">{failure}</Alert>}
        {busy && (
          <div className="editor__progress" data-testid="editor-progress">
            <progress
              max={100}
              value={progress?.percent ?? 0}
              aria-label={t('editor.progress')}
              data-percent={progress?.percent ?? 0}
            />
            <span>
              {t(
                `editor.stage.${progress?.message === 'upload' || progress?.message === 'done' ? progress.message : 'processing'}`,
              )}{' '}
              {progress?.percent ?? 0}%
            </span>
          </div>
        )}
        <div className="button-row">
          <Link to={me ? `/${me}` : '/'} className="button">
            {t('confirm.cancel')}
          </Link>
          <button
            type="submit"
            className="button button--primary"
            disabled={busy}
            data-testid="editor-submit"
          >
            {busy ? t('editor.publishing') : post ? t('editor.save') : t('editor.publish')}
          </button>
        </div>
      </form>
      <ConfirmModal
        open={removing !== null}
        title={t('editor.removeTitle')}
        onCancel={() => setRemoving(null)}
        onConfirm={confirmRemove}
        danger
        confirmLabel={t('editor.removeFile')}
      >
        <p>{t('editor.removeText')}</p>
      </ConfirmModal>
    </section>
  );
}
