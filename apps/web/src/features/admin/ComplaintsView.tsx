import type { Complaint } from '@fanverse/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { Alert } from '../../ui/Feedback.tsx';
import { FieldTooltip } from '../../ui/Field.tsx';
import { serverFieldErrors } from '../../ui/formErrors.ts';
import { Modal } from '../../ui/Modal.tsx';
import { PersonLink } from '../feed/Author.tsx';
import { AdminListState, FilterTabs, refreshCounters, useDateFormat, useListParams } from './AdminParts.tsx';
import { ADMIN_KEYS } from './adminKeys.ts';

const STATUSES = ['pending', 'resolved', 'all'] as const;
const ACTIONS = ['none', 'remove_content', 'suspend_user'] as const;
type Action = (typeof ACTIONS)[number];

/** Which actions the server can take on a complaint's target (content for posts and stories). */
export function actionsFor(targetType: Complaint['targetType']): readonly Action[] {
  if (targetType === 'post' || targetType === 'story') return ACTIONS;
  if (targetType === 'profile') return ['none', 'suspend_user'];
  return ['none'];
}

/** Where a complaint's target can be opened, if anywhere. */
export function targetPath(complaint: Pick<Complaint, 'targetType' | 'targetId'>): string | null {
  if (complaint.targetType === 'post' || complaint.targetType === 'story')
    return `/post/${complaint.targetId}`;
  if (complaint.targetType === 'profile') return `/${complaint.targetId}`;
  return null;
}

/** admin=complaints: reports and DMCA / content-removal requests, answered and acted on. */
export function ComplaintsView() {
  const { t } = useTranslation('admin');
  const { status, page, update } = useListParams(STATUSES, 'pending');
  const [answering, setAnswering] = useState<Complaint | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const date = useDateFormat();
  const query = useQuery({
    queryKey: [ADMIN_KEYS.complaints, status, page],
    queryFn: () => api('admin.complaints', { status, page }),
    placeholderData: keepPreviousData,
  });

  return (
    <section className="panel admin-view" data-testid="admin-complaints">
      <h1 className="panel__title">{t('complaints.title')}</h1>
      <p className="muted">{t('complaints.intro')}</p>
      <div className="admin-toolbar">
        <FilterTabs
          label={t('filter')}
          options={STATUSES}
          value={status}
          onChange={(next) => update({ status: next })}
          text={(s) => t(`complaints.status.${s}`)}
          testId="complaint-filter"
        />
      </div>
      <AdminListState
        query={query}
        notice={notice}
        empty={t('complaints.empty')}
        onPage={(next) => update({ page: next })}
      >
        {(data) => (
          <>
            <ul className="admin-list">
              {data.items.map((item) => {
                const path = targetPath(item);
                return (
                  <li
                    key={item._id}
                    className="admin-card"
                    data-testid="complaint-item"
                    data-id={item._id}
                    data-target={item.targetId}
                    data-status={item.status}
                  >
                    <div className="admin-card__who">
                      <div>
                        <strong>{t(`reasons.${item.reason}`)}</strong>
                        <div className="muted admin-card__meta">{date(item.date)}</div>
                      </div>
                      <span className={`admin-status admin-status--${item.status}`}>
                        {t(`complaints.status.${item.status}`)}
                      </span>
                    </div>
                    <dl className="admin-facts">
                      <div>
                        <dt>{t('complaints.target')}</dt>
                        <dd>
                          {t(`targets.${item.targetType}`)}
                          {': '}
                          {path ? (
                            <Link to={path} data-testid="complaint-target">
                              {item.targetType === 'profile'
                                ? `@${item.targetId}`
                                : item.targetId.slice(0, 8)}
                            </Link>
                          ) : (
                            <span className="admin-id">{item.targetId}</span>
                          )}
                        </dd>
                      </div>
                      <div>
                        <dt>{t('complaints.reporter')}</dt>
                        <dd>
                          {item.reporter ? <PersonLink user={item.reporter} /> : t('complaints.publicForm')}
                        </dd>
                      </div>
                      <div className="admin-facts__wide">
                        <dt>{t('complaints.details')}</dt>
                        <dd>{item.details || t('complaints.noDetails')}</dd>
                      </div>
                      <div className="admin-facts__wide">
                        <dt>{t('complaints.response')}</dt>
                        <dd data-testid="complaint-response-text">
                          {item.response || t('complaints.noResponse')}
                        </dd>
                      </div>
                      {item.action && item.action !== 'none' && (
                        <div>
                          <dt>{t('complaints.actionTaken')}</dt>
                          <dd>{t(`actions.${item.action}`, { defaultValue: item.action })}</dd>
                        </div>
                      )}
                    </dl>
                    {item.status === 'pending' && (
                      <div className="button-row">
                        <button
                          type="button"
                          className="button button--primary button--small"
                          onClick={() => {
                            setNotice(null);
                            setAnswering(item);
                          }}
                          data-testid="complaint-answer"
                        >
                          {t('complaints.answer')}
                        </button>
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          </>
        )}
      </AdminListState>
      {answering && (
        <AnswerDialog
          complaint={answering}
          onClose={() => setAnswering(null)}
          onDone={() => {
            setAnswering(null);
            setNotice(t('complaints.done'));
          }}
        />
      )}
    </section>
  );
}

/** The answer to the reporter (empty = no response) and the action on the target. */
function AnswerDialog({
  complaint,
  onClose,
  onDone,
}: {
  complaint: Complaint;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('admin');
  const client = useQueryClient();
  const formId = useId();
  const [response, setResponse] = useState('');
  const [action, setAction] = useState<Action>('none');
  const act = useMutation({
    mutationFn: () =>
      api('admin.complaintAct', { response: response.trim(), action }, { params: { id: complaint._id } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: [ADMIN_KEYS.complaints] });
      refreshCounters();
      onDone();
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    act.mutate();
  };
  const fieldErrors = serverFieldErrors(act.error);
  return (
    <Modal
      open
      onClose={onClose}
      title={t('complaints.answerTitle')}
      testId="complaint-dialog"
      footer={
        <div className="button-row">
          <button type="button" className="button" onClick={onClose}>
            {t('cancel')}
          </button>
          <button
            type="submit"
            form={formId}
            className={`button ${action === 'none' ? 'button--primary' : 'button--danger'}`}
            disabled={act.isPending}
            data-testid="complaint-submit"
          >
            {t('complaints.submit')}
          </button>
        </div>
      }
    >
      <form id={formId} className="form" onSubmit={onSubmit} noValidate>
        <p className="muted">
          {t(`reasons.${complaint.reason}`)} · {t(`targets.${complaint.targetType}`)}
        </p>
        <div className={`field${fieldErrors.response ? ' field--invalid' : ''}`}>
          <label htmlFor={`${formId}-response`}>{t('complaints.responseLabel')}</label>
          <textarea
            id={`${formId}-response`}
            value={response}
            maxLength={1000}
            rows={4}
            placeholder={t('complaints.responseHint')}
            onChange={(event) => setResponse(event.target.value)}
            data-testid="complaint-response"
          />
          {fieldErrors.response && (
            <FieldTooltip id={`${formId}-rtip`} name="response" error={fieldErrors.response} />
          )}
        </div>
        <div className={`field${fieldErrors.action ? ' field--invalid' : ''}`}>
          <label htmlFor={`${formId}-action`}>{t('complaints.action')}</label>
          <select
            id={`${formId}-action`}
            value={action}
            onChange={(event) => {
              const next = ACTIONS.find((a) => a === event.target.value);
              if (next) setAction(next);
            }}
            aria-invalid={fieldErrors.action ? true : undefined}
            data-testid="complaint-action"
          >
            {actionsFor(complaint.targetType).map((option) => (
              <option key={option} value={option}>
                {t(`actions.${option}`)}
              </option>
            ))}
          </select>
          {fieldErrors.action && (
            <FieldTooltip id={`${formId}-atip`} name="action" error={fieldErrors.action} />
          )}
        </div>
        {action !== 'none' && <Alert tone="info">{t(`complaints.warn.${action}`)}</Alert>}
        {act.isError && Object.keys(fieldErrors).length === 0 && <Alert>{errorText(act.error)}</Alert>}
      </form>
    </Modal>
  );
}
