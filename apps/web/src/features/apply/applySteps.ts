import type { ApplyState } from '@fanverse/contract';

export const APPLY_STEPS = [1, 2, 3, 4] as const;
export type ApplyStep = (typeof APPLY_STEPS)[number];

export const APPLY_STATE_KEY = ['creator.applyState'] as const;

/**
 * The step to show for an apply state (spec §2, four steps in order): the first missing step. A
 * sent application (pending or accepted) shows the waiting screen; a rejected one too, with the
 * reason and a way to resend the photos. A draft never waits: its photos still have to be sent.
 */
export function currentStep(state: ApplyState): ApplyStep {
  if (state.status === 'pending' || state.status === 'accepted') return 4;
  if (!state.step1) return 1;
  if (!state.step2) return 2;
  return state.status === 'rejected' ? 4 : 3;
}

/** Whether the applicant may open a step from the indicator (done steps, while still editable). */
export function canOpenStep(state: ApplyState, step: ApplyStep): boolean {
  if (state.status === 'pending' || state.status === 'accepted') return step === 4;
  if (step === 1) return true;
  if (step === 2) return state.step1;
  if (step === 3) return state.step2;
  return state.status === 'rejected';
}

/** Where /user/verify starts: the photos when steps 1 and 2 are done, else the first missing step. */
export function verifyStep(state: ApplyState): ApplyStep {
  const step = currentStep(state);
  if (state.status === 'draft' && state.step1 && state.step2) return 3;
  if (state.status === 'rejected' && state.step2) return 3;
  return step;
}
