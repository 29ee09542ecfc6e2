import { ADMIN_ROLES, type Post, REPORT_REASONS, type ReportReason } from '@fanverse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { useOverlay, useRequireAuth, useStableNavigate } from '../../app/navigation.ts';
import { hasSomeRole, useSession } from '../../app/session.store.ts';
import { useUi } from '../../app/ui.store.ts';
import { ConfirmModal } from '../../ui/Confirm.tsx';
import { Alert } from '../../ui/Feedback.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { ContentIcon } from '../feed/ContentIcon.tsx';

/** The ⋯ menu of a post: info, report (7 reasons), and edit / delete for its owner. */
export function PostMenu({ post, onDeleted }: { post: Post; onDeleted?: () => void }) {
  const { t } = useTranslation('content');
  const [open, setOpen] = useState(false);
  const [reporting, setReporting] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const user = useSession((s) => s.user);
  const navigate = useStableNavigate();
  const { open: openOverlay } = useOverlay();
  const client = useQueryClient();
  const menuId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const requireAuth = useRequireAuth();
  const payload = { postId: post._id, creator: post.user.user };
  const owner = user?.user === post.user.user;
  const admin = hasSomeRole(user, ADMIN_ROLES);

  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const remove = useMutation({
    mutationFn: () => api('posts.delete', undefined, { params: { id: post._id } }),
    onSuccess: () => {
      setDeleting(false);
      void client.invalidateQueries({ queryKey: ['posts.list'] });
      onDeleted?.();
    },
  });

  const choose = (action: () => void) => () => {
    setOpen(false);
    action();
  };

  return (
    <div className="post-menu" ref={ref}>
      <button
        type="button"
        className="icon-button icon-button--plain"
        aria-label={t('menu.label')}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
        data-testid="post-menu"
      >
        <ContentIcon name="more" />
      </button>
      {open && (
        <div className="popover post-menu__list" role="menu" id={menuId}>
          <button
            type="button"
            role="menuitem"
            className="menu-list__item"
            onClick={choose(() => openOverlay('post_view', post._id))}
            data-testid="post-info"
          >
            {t('menu.info')}
          </button>
          {(owner || admin) && (
            <button
              type="button"
              role="menuitem"
              className="menu-list__item"
              onClick={choose(() => openOverlay('statistics', post._id))}
              data-testid="post-statistics-open"
            >
              {t('menu.statistics')}
            </button>
          )}
          {!owner && (
            <>
              <button
                type="button"
                role="menuitem"
                className="menu-list__item"
                onClick={choose(() =>
                  requireAuth({ kind: 'message', payload }, () => openOverlay('messages', post.user.user)),
                )}
                data-testid="post-message"
              >
                {t('menu.message')}
              </button>
              <button
                type="button"
                role="menuitem"
                className="menu-list__item"
                onClick={choose(() =>
                  requireAuth({ kind: 'credits', payload }, () => navigate('/?feed=my-credits')),
                )}
                data-testid="post-credits"
              >
                {t('menu.credits')}
              </button>
            </>
          )}
          {!owner && user && (
            <button
              type="button"
              role="menuitem"
              className="menu-list__item"
              onClick={choose(() => setReporting(true))}
              data-testid="post-report"
            >
              {t('menu.report')}
            </button>
          )}
          {owner && (
            <button
              type="button"
              role="menuitem"
              className="menu-list__item"
              onClick={choose(() => navigate(`/post/edit/${post._id}`))}
              data-testid="post-edit"
            >
              {t('menu.edit')}
            </button>
          )}
          {(owner || admin) && (
            <button
              type="button"
              role="menuitem"
              className="menu-list__item menu-list__item--danger"
              onClick={choose(() => setDeleting(true))}
              data-testid="post-delete"
            >
              {t('menu.delete')}
            </button>
          )}
        </div>
      )}
      <ConfirmModal
        open={deleting}
        title={t('menu.deleteTitle')}
        onCancel={() => setDeleting(false)}
        onConfirm={() => remove.mutate()}
        busy={remove.isPending}
        danger
        confirmLabel={t('menu.delete')}
      >
        <p>{t('menu.deleteText')}</p>
        {remove.isError && <Alert>{errorText(remove.error)}</Alert>}
      </ConfirmModal>
      {reporting && <ReportModal post={post} onClose={() => setReporting(false)} />}
    </div>
  );
}

function ReportModal({ post, onClose }: { post: Post; onClose: () => void }) {
  const { t } = useTranslation('content');
  const screen = useUi((s) => s.screen);
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [details, setDetails] = useState('');
  const name = useId();
  const report = useMutation({
    mutationFn: (chosen: ReportReason) =>
      api('report.create', {
        type: post.kind === 'story' ? 'story' : 'post',
        id: post._id,
        reason: chosen,
        details: details.trim() || undefined,
      }),
  });
  return (
    <Modal
      open
      onClose={onClose}
      title={t('report.title')}
      testId="report-dialog"
      variant={screen === 'mobile' ? 'sheet' : 'dialog'}
    >
      {report.isSuccess ? (
        <>
          <Alert tone="success" testId="report-success">
            {t('report.done')}
          </Alert>
          <button type="button" className="button" onClick={onClose}>
            {t('confirm.close')}
          </button>
        </>
      ) : (
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            if (reason) report.mutate(reason);
          }}
        >
          <fieldset className="fieldset-plain report-reasons">
            <legend className="field__label">{t('report.reason')}</legend>
            {REPORT_REASONS.map((value) => (
              <label key={value} className="radio">
                <input
                  type="radio"
                  name={name}
                  value={value}
                  checked={reason === value}
                  onChange={() => setReason(value)}
                  data-testid={`report-reason-${value}`}
                />
                {t(`report.reasons.${value}`)}
              </label>
            ))}
          </fieldset>
          <label className="field">
            <span className="field__label">{t('report.details')}</span>
            <textarea
              value={details}
              maxLength={1000}
              onChange={(e) => setDetails(e.target.value)}
              rows={3}
            />
          </label>
          {report.isError && <Alert>{errorText(report.error)}</Alert>}
          <button
            type="submit"
            className="button button--primary"
            disabled={!reason || report.isPending}
            data-testid="report-submit"
          >
            {t('report.submit')}
          </button>
        </form>
      )}
    </Modal>
  );
}
