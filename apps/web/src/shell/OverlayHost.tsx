import { lazy, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Boundary } from '../app/hydration.tsx';
import { OVERLAY_PARAMS, type OverlayParam, openOverlays, useOverlay } from '../app/navigation.ts';
import { useUi } from '../app/ui.store.ts';
import { FeatureSoon, Loader } from '../ui/Feedback.tsx';
import { Modal } from '../ui/Modal.tsx';

// Each overlay's content loads when it first opens, not with the app.
const CommentsOverlay = lazy(() =>
  import('../features/comments/CommentsOverlay.tsx').then((m) => ({ default: m.CommentsOverlay })),
);
const LikesOverlay = lazy(() =>
  import('../features/comments/LikesOverlay.tsx').then((m) => ({ default: m.LikesOverlay })),
);
const MessagesOverlay = lazy(() =>
  import('../features/messages/MessagesOverlay.tsx').then((m) => ({ default: m.MessagesOverlay })),
);
const PostStatistics = lazy(() =>
  import('../features/post/PostStatistics.tsx').then((m) => ({ default: m.PostStatistics })),
);
const PostInfo = lazy(() => import('../features/post/PostInfo.tsx').then((m) => ({ default: m.PostInfo })));
const HelpOverlay = lazy(() =>
  import('../features/help/HelpOverlay.tsx').then((m) => ({ default: m.HelpOverlay })),
);
const ProfileReview = lazy(() =>
  import('../features/apply/ProfileReview.tsx').then((m) => ({ default: m.ProfileReview })),
);
const StoryViewer = lazy(() =>
  import('../features/stories/StoryViewer.tsx').then((m) => ({ default: m.StoryViewer })),
);

/**
 * Overlays opened from the query (spec §2): comments, likes, messages, statistics, post_view,
 * story_view, profile=review. Opening pushes the parameter; closing goes back, so Back closes
 * the overlay first. Each frame stays mounted while it animates out. `statistics` takes a post id
 * (its figures, for its creator and staff) and `profile=review` shows the review of one's own
 * profile (ADR 0035).
 */
export function OverlayHost() {
  const location = useLocation();
  const open = new Set(openOverlays(location.search));
  const params = new URLSearchParams(location.search);
  return (
    <>
      {OVERLAY_PARAMS.map((name) => (
        <QueryOverlay key={name} name={name} open={open.has(name)} value={params.get(name)} />
      ))}
    </>
  );
}

function QueryOverlay({ name, open, value }: { name: OverlayParam; open: boolean; value: string | null }) {
  const { t } = useTranslation('shell');
  const { close } = useOverlay();
  const screen = useUi((s) => s.screen);
  // Keep the last value so the text does not change while the overlay animates out.
  const lastValue = useRef(value ?? '');
  if (value !== null) lastValue.current = value;
  const shown = lastValue.current;
  let content: React.ReactNode = null;
  if (shown) {
    if (name === 'comments') content = <CommentsOverlay postId={shown} />;
    if (name === 'likes') content = <LikesOverlay postId={shown} />;
    if (name === 'messages') content = <MessagesOverlay value={shown} />;
    if (name === 'post_view') content = <PostInfo postId={shown} />;
    if (name === 'statistics') content = <PostStatistics postId={shown} />;
    if (name === 'profile' && shown === 'review') content = <ProfileReview />;
    if (name === 'story_view') content = <StoryViewer key={shown} value={shown} onDone={() => close(name)} />;
  }
  const what =
    name === 'messages'
      ? shown === 'wall'
        ? t('overlays.messages.wall')
        : t('overlays.messages.chat', { contact: shown })
      : t(`overlays.${name}.what`, { value: shown });
  return (
    <Modal
      open={open}
      onClose={() => close(name)}
      title={t(`overlays.${name}.title`)}
      variant={screen === 'mobile' && name !== 'story_view' ? 'sheet' : 'dialog'}
      testId={`overlay-${name}`}
      className={`overlay overlay--${name}`}
    >
      {content ? <Boundary fallback={<Loader />}>{content}</Boundary> : <FeatureSoon what={what} />}
    </Modal>
  );
}

/** The help and support overlay (spec §2 "help/support"), from the header or the user menu on any page. */
export function HelpHost() {
  const open = useUi((s) => s.helpOpen);
  // Loaded at the first opening, then kept so it can animate out.
  const [used, setUsed] = useState(false);
  if (open && !used) setUsed(true);
  return used ? (
    <Boundary fallback={null}>
      <HelpOverlay open={open} />
    </Boundary>
  ) : null;
}
