import type { LeakTrace } from '@fanverse/contract';
import type { LeakTraceView } from './leak.repository.ts';

/** A trace as the API answers it: the result fields stay null until the job has written them. */
export function presentLeakTrace({ trace, fan, file, live }: LeakTraceView): LeakTrace {
  const done = trace.status === 'done';
  const found = done && !!fan;
  return {
    _id: trace.id,
    status: trace.status,
    kind: trace.kind,
    fileName: trace.fileName,
    createdAt: trace.createdAt.toISOString(),
    found: done ? found : null,
    confidence: done ? (found ? (trace.confidence ?? 0) : 0) : null,
    fan: found && fan ? { _id: fan.id, user: fan.username, name: fan.name } : null,
    media: found && file ? { _id: file.id, name: file.name } : null,
    live: found && live ? { _id: live.id, title: live.title } : null,
    servedAt: found ? (trace.servedAt?.toISOString() ?? null) : null,
    error: trace.status === 'failed' ? (trace.error ?? 'failed') : null,
    complaintId: trace.complaintId,
  };
}
