import { z } from 'zod';

/** The result of tracing a leaked copy (ADR 0026): whose marked copy it is, or nobody's. */
export const leakTraceSchema = z.object({
  _id: z.string(),
  /** A mark was read and names a fan of media the caller may trace. */
  found: z.boolean(),
  /** What was traced: a picture (its blind mark, ADR 0026) or a video (its A/B segments, ADR 0041). */
  kind: z.enum(['image', 'video']),
  /**
   * 0–100, in percent: one minus the chance that an unmarked picture reads like this (images), or
   * that an unrelated fan's code agrees as well with the segments read (videos).
   */
  confidence: z.number(),
  fan: z.object({ _id: z.string(), user: z.string(), name: z.string() }).nullable(),
  media: z.object({ _id: z.string(), name: z.string() }).nullable(),
  /** When the file was first served to that fan (ISO). */
  servedAt: z.string().nullable(),
  /** The DMCA complaint filed with this result, once filed. */
  complaintId: z.string().nullable(),
});
export type LeakTrace = z.infer<typeof leakTraceSchema>;

export const leakTraceFieldsSchema = z.object({});
export const leakComplaintResponseSchema = z.object({ success: z.literal(true), complaintId: z.string() });
