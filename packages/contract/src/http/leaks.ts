import { z } from 'zod';

/**
 * Where a trace is (ADR 0026): `pending` (stored, queued), `running` (a worker reads the copy),
 * `done` (the result fields are set) or `failed` (`error` says why).
 */
export const LEAK_TRACE_STATUSES = ['pending', 'running', 'done', 'failed'] as const;
export type LeakTraceStatus = (typeof LEAK_TRACE_STATUSES)[number];

/**
 * Why a trace failed, as a code the web app words: `unreadable` (the copy could not be decoded),
 * `failed` (tracing stopped before it finished: the stored copy was lost or the worker kept dying).
 */
export const LEAK_TRACE_ERRORS = ['unreadable', 'failed'] as const;
export type LeakTraceError = (typeof LEAK_TRACE_ERRORS)[number];

/** A trace of a leaked copy: whose marked copy it is, or nobody's, once the job has read it. */
export const leakTraceSchema = z.object({
  _id: z.string(),
  status: z.enum(LEAK_TRACE_STATUSES),
  /** What was uploaded: a picture (its blind mark, ADR 0026) or a video (its A/B segments, ADR 0041). */
  kind: z.enum(['image', 'video']).nullable(),
  /** The uploaded file's name, to tell traces apart. */
  fileName: z.string(),
  /** When it was asked for (ISO). */
  createdAt: z.string(),
  /** Null until done: a mark was read and names a fan of media or a live the requester may trace. */
  found: z.boolean().nullable(),
  /**
   * Null until done; then 0–100, in percent: one minus the chance that an unmarked picture reads
   * like this (images), or that an unrelated fan's code agrees as well with the segments read
   * (videos, recordings of lives).
   */
  confidence: z.number().nullable(),
  fan: z.object({ _id: z.string(), user: z.string(), name: z.string() }).nullable(),
  media: z.object({ _id: z.string(), name: z.string() }).nullable(),
  /** The live a video was traced to: a recording of it (ADR 0045); `media` is then null. */
  live: z.object({ _id: z.string(), title: z.string() }).nullable(),
  /** When the file was first served to that fan (ISO). */
  servedAt: z.string().nullable(),
  /** Set when failed. */
  error: z.enum(LEAK_TRACE_ERRORS).nullable(),
  /** The DMCA complaint filed with this result, once filed. */
  complaintId: z.string().nullable(),
});
export type LeakTrace = z.infer<typeof leakTraceSchema>;

export const leakTraceFieldsSchema = z.object({});
export const leakTracesResponseSchema = z.object({ traces: z.array(leakTraceSchema) });
export const leakComplaintResponseSchema = z.object({ success: z.literal(true), complaintId: z.string() });
