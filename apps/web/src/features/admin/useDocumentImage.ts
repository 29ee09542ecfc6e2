import {
  apiErrorSchema,
  type DocumentSide,
  errorMessage,
  LANGUAGE_HEADER,
  TOKEN_HEADER,
} from '@fanverse/contract';
import { useEffect, useState } from 'react';
import { API_BASE } from '../../app/api.ts';
import { currentLanguage, readToken } from '../../app/session.store.ts';

export type DocumentImage =
  | { state: 'loading' }
  | { state: 'ready'; url: string }
  | { state: 'error'; message: string };

/** The private path of an identity photo; it needs the session token, so <img src> cannot use it. */
export function documentPath(id: string, side: DocumentSide): string {
  return `${API_BASE}/admin/verifications/${encodeURIComponent(id)}/documents/${side}`;
}

/**
 * Fetches an identity photo with the session token and shows it through a blob object URL,
 * revoked when the viewer closes (spec §1: identity photos never get a public or signed URL).
 */
export function useDocumentImage(id: string, side: DocumentSide): DocumentImage {
  const [image, setImage] = useState<DocumentImage>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    setImage({ state: 'loading' });
    const headers: Record<string, string> = { [LANGUAGE_HEADER]: currentLanguage() };
    const token = readToken();
    if (token) headers[TOKEN_HEADER] = token;
    fetch(documentPath(id, side), { headers, signal: controller.signal, cache: 'no-store' })
      .then(async (response) => {
        if (!response.ok) {
          const parsed = apiErrorSchema.safeParse(await response.json().catch(() => null));
          throw new Error(
            parsed.success ? parsed.data.message : errorMessage('NOT_FOUND', currentLanguage()),
          );
        }
        url = URL.createObjectURL(await response.blob());
        if (controller.signal.aborted) URL.revokeObjectURL(url);
        else setImage({ state: 'ready', url });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setImage({
          state: 'error',
          message: error instanceof Error ? error.message : errorMessage('INTERNAL', currentLanguage()),
        });
      });
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [id, side]);
  return image;
}
