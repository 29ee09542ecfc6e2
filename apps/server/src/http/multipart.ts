import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { detectUpload, fileTooLarge, maxBytesFor, SNIFF_BYTES } from '../media/detect.ts';
import { AppError } from './app-error.ts';

/** A file part saved to a temporary file; the caller moves or deletes it. */
export interface UploadedFile {
  field: string;
  filename: string;
  /** The MIME type the client claimed (never trusted: the content decides). */
  mimetype: string;
  /** Temporary file under os.tmpdir(). */
  path: string;
  size: number;
}

export interface MultipartBody {
  fields: Record<string, string | string[]>;
  files: UploadedFile[];
}

export interface UploadLimits {
  maxImageBytes: number;
  maxVideoBytes: number;
  /** Most files in one request. */
  maxFiles?: number;
}

const MAX_FIELDS = 100;
const MAX_FIELD_BYTES = 64 * 1024;

/** Registers @fastify/multipart with limits above which the stream is cut even before our own checks. */
export async function registerMultipart(app: FastifyInstance, config: Pick<Config, 'media'>): Promise<void> {
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: {
      fileSize: Math.max(config.media.maxImageBytes, config.media.maxVideoBytes) + 1,
      files: 20,
      fields: MAX_FIELDS,
      fieldSize: MAX_FIELD_BYTES,
    },
  });
}

/**
 * Reads a multipart/form-data request: text fields, and each file streamed to a temporary file.
 * The type is detected from the first bytes, and the limit of that type (image or video) is
 * enforced while streaming: FILE_TOO_LARGE names the file. On any error every temporary file is
 * removed before the error is thrown.
 */
export async function readMultipart(req: FastifyRequest, limits: UploadLimits): Promise<MultipartBody> {
  if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
  // No prototype: a field named __proto__ stays a plain key.
  const fields: Record<string, string | string[]> = Object.create(null);
  const files: UploadedFile[] = [];
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (!part.filename) {
          part.file.resume(); // an empty file input
          continue;
        }
        if (limits.maxFiles !== undefined && files.length >= limits.maxFiles) {
          throw new AppError('PAYLOAD_TOO_LARGE');
        }
        files.push(await saveFile(part, limits, files));
      } else {
        const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        const prev = fields[part.fieldname];
        fields[part.fieldname] =
          prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
      }
    }
  } catch (err) {
    await deleteTempFiles(files);
    throw closingConnection(err);
  }
  return { fields, files };
}

/** Errors of the multipart reader that mean "too much", as opposed to a malformed body. */
const TOO_LARGE = new Set([
  'FST_PARTS_LIMIT',
  'FST_FILES_LIMIT',
  'FST_FIELDS_LIMIT',
  'FST_REQ_FILE_TOO_LARGE',
]);

/**
 * A refused upload leaves the rest of its body unread: the answer closes the connection so the
 * client reads it at once and no half-read request lingers on a keep-alive socket. Anything the
 * parser throws that is not a limit (no or wrong boundary, a body cut short, a broken part header,
 * a field named __proto__) is a malformed form: INVALID_MULTIPART, never a 500.
 */
function closingConnection(err: unknown): unknown {
  const close = { connection: 'close' };
  if (err instanceof AppError)
    return new AppError(err.code, err.params, err.fields, { ...err.headers, ...close });
  const code = (err as { code?: unknown }).code;
  // A failure of this machine (disk full, no permission) stays a server error.
  if ((err as { syscall?: unknown }).syscall !== undefined) return err;
  const tooLarge = typeof code === 'string' && TOO_LARGE.has(code);
  return new AppError(tooLarge ? 'PAYLOAD_TOO_LARGE' : 'INVALID_MULTIPART', {}, undefined, close);
}

async function saveFile(
  part: MultipartFile,
  limits: UploadLimits,
  saved: UploadedFile[],
): Promise<UploadedFile> {
  const filename = path.basename(part.filename);
  const file: UploadedFile = {
    field: part.fieldname,
    filename,
    mimetype: part.mimetype,
    path: path.join(os.tmpdir(), `fanverse-upload-${randomUUID()}`),
    size: 0,
  };
  // Registered before writing so that a failure half-way still removes the partial file.
  saved.push(file);
  let head = Buffer.alloc(0);
  let max: number | undefined;
  const decide = () => {
    max = maxBytesFor(detectUpload(head, filename).kind, limits);
  };
  const guard = new Transform({
    transform(chunk: Buffer, _enc, done) {
      try {
        file.size += chunk.length;
        if (max === undefined) {
          head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
          if (head.length >= SNIFF_BYTES) decide();
        }
        if (max !== undefined && file.size > max) throw fileTooLarge(filename, max);
        done(null, chunk);
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done) {
      try {
        if (max === undefined) decide();
        if (max !== undefined && file.size > max) throw fileTooLarge(filename, max);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  });
  try {
    await pipeline(part.file, guard, fs.createWriteStream(file.path, { flags: 'wx', mode: 0o600 }));
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw fileTooLarge(filename, Math.max(limits.maxImageBytes, limits.maxVideoBytes));
    }
    throw err;
  }
  saved.pop();
  return file;
}

/** Removes temporary upload files (missing ones are ignored). */
export async function deleteTempFiles(files: Pick<UploadedFile, 'path'>[]): Promise<void> {
  await Promise.all(files.map((f) => fs.promises.rm(f.path, { force: true })));
}
