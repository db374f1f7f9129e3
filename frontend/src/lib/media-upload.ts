import {
  API_ROUTES,
  MEDIA_UPLOAD_FIELD,
  type MediaDto,
  type MediaUploadResponse,
} from '@agency/contracts';
import { useCallback, useState } from 'react';
import { expireAdminSession } from './admin-session';
import { api } from './api';
import { useAppDispatch } from './hooks';
import { refusalBeforeUpload, refusalFromBody, type UploadRefusal } from './media-upload-error';
import { readStorage, STORAGE_KEYS } from './storage';

export type UploadOutcome =
  | { ok: true; response: MediaUploadResponse }
  /** `refusal` is undefined when the network failed: nothing came back to explain it. */
  | { ok: false; refusal: UploadRefusal | undefined };

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Sends one image to the library. XMLHttpRequest rather than fetch: only it
 * reports how much of the body has gone, which a 10 MB upload on a slow line
 * needs to show.
 */
export function sendMediaUpload(
  file: File,
  onProgress: (fraction: number) => void,
): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const form = new FormData();
    form.append(MEDIA_UPLOAD_FIELD, file, file.name);
    const request = new XMLHttpRequest();
    request.open('POST', API_ROUTES.media);
    request.withCredentials = true;
    const token = readStorage(STORAGE_KEYS.adminToken);
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    if (document.documentElement.lang) {
      request.setRequestHeader('Accept-Language', document.documentElement.lang);
    }
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      const body = parseJson(request.responseText);
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        resolve({ ok: true, response: body as MediaUploadResponse });
        return;
      }
      if (request.status === 401) expireAdminSession();
      resolve({ ok: false, refusal: refusalFromBody(body) });
    });
    request.addEventListener('error', () => resolve({ ok: false, refusal: undefined }));
    request.send(form);
  });
}

export type UploadState =
  | { status: 'uploading'; progress: number }
  | { status: 'done'; item: MediaDto; duplicate: boolean }
  | { status: 'failed'; refusal: UploadRefusal | undefined };

export interface UploadEntry {
  key: string;
  fileName: string;
  state: UploadState;
}

let uploadCounter = 0;

/**
 * Uploads files one after another (each shows its own progress and its own
 * outcome), then has every media list asked again. Resolves with the images
 * stored, duplicates included.
 */
export function useMediaUploads() {
  const dispatch = useAppDispatch();
  const [entries, setEntries] = useState<UploadEntry[]>([]);

  const update = useCallback((key: string, state: UploadState) => {
    setEntries((current) =>
      current.map((entry) => (entry.key === key ? { ...entry, state } : entry)),
    );
  }, []);

  const upload = useCallback(
    async (files: readonly File[]): Promise<MediaDto[]> => {
      const queued = files.map((file) => {
        uploadCounter += 1;
        const refusal = refusalBeforeUpload(file);
        const state: UploadState = refusal
          ? { status: 'failed', refusal }
          : { status: 'uploading', progress: 0 };
        return { file, entry: { key: `upload-${uploadCounter}`, fileName: file.name, state } };
      });
      setEntries((current) => [...queued.map(({ entry }) => entry), ...current]);
      const stored: MediaDto[] = [];
      for (const { file, entry } of queued) {
        if (entry.state.status === 'failed') continue;
        const outcome = await sendMediaUpload(file, (progress) =>
          update(entry.key, { status: 'uploading', progress }),
        );
        if (outcome.ok) {
          stored.push(outcome.response.item);
          update(entry.key, {
            status: 'done',
            item: outcome.response.item,
            duplicate: outcome.response.duplicate,
          });
        } else {
          update(entry.key, { status: 'failed', refusal: outcome.refusal });
        }
      }
      if (stored.length > 0) dispatch(api.util.invalidateTags(['Media', 'ActivityLogs']));
      return stored;
    },
    [dispatch, update],
  );

  const clear = useCallback(() => setEntries([]), []);
  return { entries, upload, clear };
}
