import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { type OverlayParam, openOverlays, useOverlay } from '../app/navigation.ts';
import { useUi } from '../app/ui.store.ts';
import { FeatureSoon } from '../ui/Feedback.tsx';
import { Modal } from '../ui/Modal.tsx';

/**
 * Overlays opened from the query (spec §2): comments, likes, messages, statistics, post_view,
 * story_view, profile=review. Opening pushes the parameter; closing goes back, so Back closes
 * the overlay first. Later issues put their content in these frames.
 */
export function OverlayHost() {
  const { t } = useTranslation('shell');
  const location = useLocation();
  const { close } = useOverlay();
  const screen = useUi((s) => s.screen);
  const params = new URLSearchParams(location.search);
  const overlays = openOverlays(location.search);
  const describe = (name: OverlayParam): string => {
    const value = params.get(name) ?? '';
    if (name === 'messages') {
      return value === 'wall' ? t('overlays.messages.wall') : t('overlays.messages.chat', { contact: value });
    }
    return t(`overlays.${name}.what`, { value });
  };
  return (
    <>
      {overlays.map((name) => (
        <Modal
          key={name}
          open
          onClose={() => close(name)}
          title={t(`overlays.${name}.title`)}
          variant={screen === 'mobile' ? 'sheet' : 'dialog'}
          testId={`overlay-${name}`}
          className="overlay"
        >
          <FeatureSoon what={describe(name)} />
        </Modal>
      ))}
    </>
  );
}
