import type { ApplyState, DocumentType, Verification } from '@fanverse/contract';
import { applicationProfileSchema, DOCUMENT_SIDES, DOCUMENT_TYPES } from '@fanverse/contract';
import type { ProfileRow, UserRow } from '../../db/schema.ts';
import { presentAdminUser } from '../admin/admin.presenter.ts';
import type { ApplicationRow, DocumentRow } from './application.repository.ts';

const docType = (v: string | null): DocumentType | null =>
  v && (DOCUMENT_TYPES as readonly string[]).includes(v) ? (v as DocumentType) : null;

function fieldsOf(app: ApplicationRow | undefined): ApplyState['fields'] {
  const parsed = applicationProfileSchema.partial().safeParse(app?.fields ?? {});
  return parsed.success ? parsed.data : {};
}

/** The apply state of spec §3: step1..step4 and DataApplyCreatorComplete. */
export function presentApplyState(app: ApplicationRow | undefined, docs: DocumentRow[]): ApplyState {
  const step1 = !!app && applicationProfileSchema.safeParse(app.fields).success;
  const step2 = step1 && !!app?.termsAcceptedAt;
  const documents = {
    front: docs.some((d) => d.side === 'front'),
    back: docs.some((d) => d.side === 'back'),
    face: docs.some((d) => d.side === 'face'),
  };
  const step3 = step2 && DOCUMENT_SIDES.every((s) => documents[s]) && !!app?.documentType;
  const step4 = step3 && (app?.status === 'pending' || app?.status === 'accepted');
  return {
    step1,
    step2,
    step3,
    step4,
    DataApplyCreatorComplete: step4,
    status: (app?.status as ApplyState['status']) ?? 'draft',
    reason: app?.reason ?? null,
    fields: fieldsOf(app),
    documentType: docType(app?.documentType ?? null),
    documents,
    submittedAt: app?.submittedAt?.toISOString() ?? null,
  };
}

export function presentVerification(
  app: ApplicationRow,
  user: UserRow,
  profile: ProfileRow | null,
  docs: DocumentRow[],
): Verification {
  return {
    _id: app.id,
    user: presentAdminUser(user, profile),
    fields: fieldsOf(app),
    documentType: docType(app.documentType),
    documents: DOCUMENT_SIDES.filter((s) => docs.some((d) => d.applicationId === app.id && d.side === s)),
    status: app.status as Verification['status'],
    reason: app.reason,
    submittedAt: app.submittedAt?.toISOString() ?? null,
    decidedAt: app.decidedAt?.toISOString() ?? null,
  };
}
