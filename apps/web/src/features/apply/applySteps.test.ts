import type { ApplyState } from '@fanverse/contract';
import { describe, expect, it } from 'vitest';
import { canOpenStep, currentStep, verifyStep } from './applySteps.ts';

function state(patch: Partial<ApplyState>): ApplyState {
  return {
    step1: false,
    step2: false,
    step3: false,
    step4: false,
    DataApplyCreatorComplete: false,
    status: 'draft',
    reason: null,
    fields: {},
    documentType: null,
    documents: { front: false, back: false, face: false },
    submittedAt: null,
    ...patch,
  };
}

describe('apply steps', () => {
  it('starts at the first missing step, in order', () => {
    expect(currentStep(state({}))).toBe(1);
    expect(currentStep(state({ step1: true }))).toBe(2);
    expect(currentStep(state({ step1: true, step2: true }))).toBe(3);
    // A rejected applicant who edits the profile is a draft again: the photos must be resent.
    expect(currentStep(state({ step1: true, step2: true, step3: true }))).toBe(3);
  });

  it('shows the waiting screen while pending, once accepted and when rejected', () => {
    const sent = { step1: true, step2: true, step3: true };
    expect(currentStep(state({ ...sent, step4: true, status: 'pending' }))).toBe(4);
    expect(currentStep(state({ ...sent, step4: true, status: 'accepted' }))).toBe(4);
    expect(currentStep(state({ ...sent, status: 'rejected', reason: 'Blurry' }))).toBe(4);
  });

  it('sends /user/verify to the photos once steps 1 and 2 are done, else to the missing step', () => {
    expect(verifyStep(state({}))).toBe(1);
    expect(verifyStep(state({ step1: true }))).toBe(2);
    expect(verifyStep(state({ step1: true, step2: true }))).toBe(3);
    expect(verifyStep(state({ step1: true, step2: true, step3: true, status: 'rejected' }))).toBe(3);
    expect(verifyStep(state({ step1: true, step2: true, step3: true, step4: true, status: 'pending' }))).toBe(
      4,
    );
  });

  it('locks the earlier steps while the application is pending', () => {
    const pending = state({ step1: true, step2: true, step3: true, step4: true, status: 'pending' });
    expect(canOpenStep(pending, 1)).toBe(false);
    expect(canOpenStep(pending, 4)).toBe(true);
    expect(canOpenStep(state({ step1: true }), 2)).toBe(true);
    expect(canOpenStep(state({ step1: true }), 3)).toBe(false);
  });
});
