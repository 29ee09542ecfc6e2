import type { FeatureSwitch } from '@fanverse/contract';
import { useSession } from './session.store.ts';

/**
 * Whether a run-time feature switch (super dashboard) is on, from the start-up data. The server
 * refuses a switched-off call anyway; this hides its entry. Unknown (no start-up data yet) counts as on.
 */
export function useFeature(name: FeatureSwitch): boolean {
  return useSession((s) => s.app?.features.switches[name] ?? true);
}
