import type { LiveChatMessage, LiveResponse } from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { api, errorText } from '../../app/api.ts';
import { onSocketEvent, watchLive } from '../../app/socket.ts';
import { ConfirmModal } from '../../ui/Confirm.tsx';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { TipButton } from '../money/TipGift.tsx';
import { WALLET_KEY } from '../money/useWallet.ts';
import { broadcasting, stopBroadcast } from './broadcast.ts';
import { LIVE_URL_REFRESH_MS, LivePlayer } from './LivePlayer.tsx';
import './live.css';

type Support = { id: number; fan: string; kind: string; credits: number };

/** /live/:id: the live overlay (spec §2) — video, viewers, goal, chat, tips; or what to do to watch. */
export default function LivePage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('live');
  const client = useQueryClient();
  const key = ['lives.get', id];
  // Refetched every minute: the player's signed playlist URL is short-lived (LivePlayer).
  const live = useQuery({
    queryKey: key,
    queryFn: () => api('lives.get', undefined, { params: { id } }),
    refetchInterval: (q) => (q.state.data?.playlist ? LIVE_URL_REFRESH_MS : false),
  });
  const allowed = live.data?.access.allowed ?? false;
  const update = (fn: (old: LiveResponse) => LiveResponse) =>
    client.setQueryData<LiveResponse>(key, (old) => (old ? fn(old) : old));
  const [supports, setSupports] = useState<Support[]>([]);

  // The live's room: chat, tips and gifts, viewer count, the end; joined only once allowed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: joins once per live; `update` is stable enough
  useEffect(() => {
    if (!allowed) return;
    const leave = watchLive(id);
    const offs = [
      onSocketEvent('liveChat', ({ liveId, message }) => {
        if (liveId === id)
          update((o) => ({
            ...o,
            chat: [...o.chat.filter((m) => m._id !== message._id), message].slice(-100),
          }));
      }),
      onSocketEvent('liveChatRemoved', ({ liveId, messageId }) => {
        if (liveId === id) update((o) => ({ ...o, chat: o.chat.filter((m) => m._id !== messageId) }));
      }),
      onSocketEvent('liveViewers', ({ liveId, viewers }) => {
        if (liveId === id) update((o) => ({ ...o, live: { ...o.live, viewers } }));
      }),
      onSocketEvent('liveSupport', ({ liveId, fan, kind, credits, earnedCredits }) => {
        if (liveId !== id) return;
        update((o) => ({ ...o, live: { ...o.live, earnedCredits } }));
        const entry = { id: Date.now() + Math.random(), fan, kind, credits };
        setSupports((s) => [...s, entry].slice(-4));
        setTimeout(() => setSupports((s) => s.filter((x) => x.id !== entry.id)), 6000);
      }),
      onSocketEvent('liveEnded', ({ liveId }) => {
        if (liveId === id) void client.invalidateQueries({ queryKey: key });
      }),
      onSocketEvent('liveBanned', ({ liveId }) => {
        if (liveId === id) void client.invalidateQueries({ queryKey: key });
      }),
    ];
    return () => {
      leave();
      for (const off of offs) off();
    };
  }, [id, allowed]);

  if (live.isPending) return <Loader page />;
  if (live.isError) return <Alert>{errorText(live.error)}</Alert>;
  const data = live.data;
  return (
    <section className="panel live" data-testid="live-page" aria-labelledby="live-title">
      <header className="live__head">
        <h1 id="live-title" className="panel__title">
          {data.live.title}
        </h1>
        <p className="muted">
          <Link to={`/${data.live.creator.user}`}>{data.live.creator.name}</Link>
          {' · '}
          {data.live.status === 'live' ? (
            <span className="live__badge">{t('watch.onAir')}</span>
          ) : (
            <span>{t('watch.ended')}</span>
          )}
        </p>
      </header>
      {data.access.allowed ? <Stage data={data} supports={supports} /> : <Refused data={data} />}
    </section>
  );
}

function Refused({ data }: { data: LiveResponse }) {
  const { t } = useTranslation('live');
  const client = useQueryClient();
  const ticket = useMutation({
    mutationFn: () => api('lives.ticket', undefined, { params: { id: data.live._id } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['lives.get', data.live._id] });
      void client.invalidateQueries({ queryKey: WALLET_KEY });
    },
  });
  const reason = data.access.reason ?? 'ended';
  return (
    <div className="live__refused" data-testid="live-refused" data-reason={reason}>
      <p>{t(`refused.${reason}`, { name: data.live.creator.name, credits: data.live.ticketPrice })}</p>
      {reason === 'subscribe' && (
        <Link
          to={`/${data.live.creator.user}`}
          className="button button--primary"
          data-testid="live-subscribe"
        >
          {t('refused.subscribeButton', { name: data.live.creator.name })}
        </Link>
      )}
      {reason === 'ticket' && (
        <button
          type="button"
          className="button button--primary"
          onClick={() => ticket.mutate()}
          disabled={ticket.isPending}
          data-testid="live-buy-ticket"
        >
          {t('refused.ticketButton', { credits: data.live.ticketPrice })}
        </button>
      )}
      {ticket.isError && <Alert>{errorText(ticket.error)}</Alert>}
    </div>
  );
}

function Stage({ data, supports }: { data: LiveResponse; supports: Support[] }) {
  const { t } = useTranslation('live');
  const { live } = data;
  const own = broadcasting(live._id);
  const preview = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (preview.current && own) preview.current.srcObject = own;
  }, [own]);
  const goal = live.goalCredits
    ? Math.min(100, Math.round((live.earnedCredits / live.goalCredits) * 100))
    : null;
  return (
    <div className="live__stage">
      <div className="live__screen">
        {live.status !== 'live' ? (
          <p className="live__over">{t('watch.over')}</p>
        ) : own ? (
          <video
            ref={preview}
            className="live__video"
            autoPlay
            muted
            playsInline
            aria-label={t('go.preview')}
            data-testid="live-own-preview"
          />
        ) : data.playlist ? (
          <LivePlayer src={data.playlist} title={live.title} />
        ) : null}
        <div className="live__overlay">
          <span className="live__badge">{t('watch.live')}</span>
          <span className="live__viewers" data-testid="live-viewers">
            {t('watch.viewers', { count: live.viewers })}
          </span>
        </div>
        <ul className="live__supports" aria-live="polite" data-testid="live-supports">
          {supports.map((s) => (
            <li key={s.id} className={`live__support live__support--${s.kind}`}>
              {t(`support.${s.kind}`, { fan: s.fan, credits: s.credits })}
            </li>
          ))}
        </ul>
      </div>
      {goal !== null && (
        <div className="live__goal">
          <span id="live-goal-label">
            {t('watch.goal', { credits: live.goalCredits, label: live.goalLabel ?? '' })}
          </span>
          <div
            className="live__goalbar"
            role="progressbar"
            aria-labelledby="live-goal-label"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={goal}
          >
            <span style={{ width: `${goal}%` }} />
          </div>
          <span className="muted">
            {t('watch.goalProgress', { earned: live.earnedCredits, goal: live.goalCredits })}
          </span>
        </div>
      )}
      <div className="live__actions">
        {!data.isOwner && live.status === 'live' && (
          <TipButton creator={live.creator.user} live={live._id} className="button button--primary" />
        )}
        {data.isOwner || live.status !== 'live' ? <OwnerActions data={data} /> : null}
      </div>
      <Chat data={data} />
    </div>
  );
}

function OwnerActions({ data }: { data: LiveResponse }) {
  const { t } = useTranslation('live');
  const client = useQueryClient();
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState(false);
  const [published, setPublished] = useState(false);
  const end = useMutation({
    mutationFn: () => api('lives.end', undefined, { params: { id: data.live._id } }),
    onSuccess: (res) => {
      stopBroadcast();
      setConfirm(false);
      client.setQueryData(['lives.get', data.live._id], res);
    },
  });
  const replay = useMutation({
    mutationFn: () => api('lives.replay', { text: data.live.title }, { params: { id: data.live._id } }),
    onSuccess: () => setPublished(true),
  });
  if (!data.isOwner) return null;
  return (
    <>
      {data.live.status === 'live' ? (
        <button
          type="button"
          className="button button--danger"
          onClick={() => setConfirm(true)}
          data-testid="live-end"
        >
          {t('owner.end')}
        </button>
      ) : data.live.replayPost || published ? (
        <p className="muted">{t('owner.replaySent')}</p>
      ) : (
        <button
          type="button"
          className="button"
          onClick={() => replay.mutate()}
          disabled={replay.isPending}
          data-testid="live-replay"
        >
          {t('owner.replay')}
        </button>
      )}
      {data.live.status === 'ended' && (
        <button type="button" className="button" onClick={() => void navigate('/live/new')}>
          {t('owner.again')}
        </button>
      )}
      {(end.isError || replay.isError) && <Alert>{errorText(end.error ?? replay.error)}</Alert>}
      <ConfirmModal
        open={confirm}
        title={t('owner.endTitle')}
        confirmLabel={t('owner.end')}
        danger
        busy={end.isPending}
        onConfirm={() => end.mutate()}
        onCancel={() => setConfirm(false)}
      >
        <p>{t('owner.endText')}</p>
      </ConfirmModal>
    </>
  );
}

function Chat({ data }: { data: LiveResponse }) {
  const { t } = useTranslation('live');
  const [text, setText] = useState('');
  const inputId = useId();
  const list = useRef<HTMLOListElement>(null);
  const id = data.live._id;
  const send = useMutation({
    mutationFn: () => api('lives.chat', { text }, { params: { id } }),
    onSuccess: () => setText(''),
  });
  const remove = useMutation({
    mutationFn: (message: string) => api('lives.removeChat', undefined, { params: { id, message } }),
  });
  const moderate = useMutation({
    mutationFn: (v: { user: string; action: 'mute' | 'ban' }) => api('lives.moderate', v, { params: { id } }),
  });
  const count = data.chat.length;
  useEffect(() => {
    if (count) list.current?.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }, [count]);
  const canModerate = data.isOwner;
  return (
    <div className="live__chat">
      <h2 className="live__chat-title">{t('chat.title')}</h2>
      <ol ref={list} className="live__messages" data-testid="live-chat" aria-live="polite">
        {data.chat.map((m: LiveChatMessage) => (
          <li key={m._id} className="live__message">
            <strong>{m.user.name}</strong> <span>{m.text}</span>
            {canModerate && m.user._id !== data.live.creator._id && (
              <span className="live__mod">
                <button type="button" className="link-button" onClick={() => remove.mutate(m._id)}>
                  {t('chat.remove')}
                </button>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => moderate.mutate({ user: m.user.user, action: 'mute' })}
                >
                  {t('chat.mute')}
                </button>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => moderate.mutate({ user: m.user.user, action: 'ban' })}
                >
                  {t('chat.ban')}
                </button>
              </span>
            )}
          </li>
        ))}
      </ol>
      {moderate.isSuccess && <Alert tone="success">{t('chat.done')}</Alert>}
      {data.live.status === 'live' && (
        <form
          className="live__send"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) send.mutate();
          }}
        >
          <label htmlFor={inputId} className="sr-only">
            {t('chat.label')}
          </label>
          <input
            id={inputId}
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={280}
            placeholder={t('chat.placeholder')}
            disabled={data.muted}
            data-testid="live-chat-input"
          />
          <button type="submit" className="button" disabled={send.isPending || data.muted}>
            {t('chat.send')}
          </button>
        </form>
      )}
      {data.muted && <p className="muted">{t('chat.muted')}</p>}
      {(send.isError || remove.isError) && <Alert>{errorText(send.error ?? remove.error)}</Alert>}
    </div>
  );
}
