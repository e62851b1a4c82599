import { DEFAULT_CHUNK_BYTES, UPLOAD_MESSAGES } from "../schemas/media-schemas";
import { videoTypeOf } from "../rules/video-files";

/** Browser side of the chunked upload: init → chunks (one at a time) → complete. */

export class UploadFailed extends Error {
  override name = "UploadFailed";
}

type InitAnswer = {
  uploadId?: string;
  chunkSize?: number;
  totalChunks?: number;
  receivedChunks?: number;
  message?: string;
};

/** Where the browser keeps an upload's id, so a reload resumes it (the server also finds it by name, size and type). */
export function resumeKey(
  contestId: number,
  file: { name: string; size: number; lastModified: number },
  purpose: UploadPurpose = "media",
): string {
  const prefix = purpose === "media" ? "media-upload" : `${purpose}-upload`;
  return `${prefix}:${contestId}:${file.name}:${file.size}:${file.lastModified}`;
}

/** media: the content tab's media items; delivery: the 納品ファイル tab's edited videos. */
export type UploadPurpose = "media" | "delivery";

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

async function messageOf(response: Response): Promise<string | null> {
  try {
    const body = (await response.json()) as { message?: unknown };
    return typeof body.message === "string" ? body.message : null;
  } catch {
    return null;
  }
}

/** The `message` of a JSON answer read as text (XHR's), or null. */
function messageIn(text: string): string | null {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body.message === "string" ? body.message : null;
  } catch {
    return null;
  }
}

/** POSTs one chunk with XHR, which (unlike fetch) reports upload progress. Rejects only on a network failure. */
function postChunk(
  url: string,
  form: FormData,
  onProgress: (loaded: number) => void,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new UploadFailed(UPLOAD_MESSAGES.chunkNetwork));
    xhr.onabort = () => reject(new UploadFailed(UPLOAD_MESSAGES.chunkNetwork));
    xhr.send(form);
  });
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Uploads a file in the server's chunk size, resuming from the chunks the server already
 * has. A lost connection or a 5xx is retried a few times (re-sending a stored chunk is
 * harmless); anything else fails with the spec's messages.
 */
export async function uploadInChunks(options: {
  contestId: number;
  file: File;
  category?: string;
  purpose?: UploadPurpose;
  onProgress: (loaded: number, total: number) => void;
}): Promise<unknown> {
  const { contestId, file, category = "sample", purpose = "media", onProgress } = options;
  const base = `/api/video/contests/${contestId}/media`;
  const key = resumeKey(contestId, file, purpose);
  // A .MOV may come with no type from the system: the name says it is a video (lib/rules/video-files).
  const contentType = videoTypeOf(file) ?? file.type;
  const mediaType = contentType.startsWith("video/") ? "video" : "image";
  const hint = storage()?.getItem(key) ?? undefined;

  const initResponse = await fetch(`${base}/chunked-init`, {
    method: "POST",
    credentials: "include",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      fileName: file.name,
      fileSize: file.size,
      contentType,
      mediaType,
      // The spec's count; the server answers its own chunk size and count, which are used below.
      totalChunks: Math.ceil(file.size / DEFAULT_CHUNK_BYTES),
      category,
      purpose,
      ...(hint && /^[a-f0-9]{32}$/.test(hint) ? { uploadId: hint } : {}),
    }),
  }).catch(() => {
    throw new UploadFailed(UPLOAD_MESSAGES.general);
  });
  if (!initResponse.ok)
    throw new UploadFailed(
      (await messageOf(initResponse)) ?? `${UPLOAD_MESSAGES.general}（${initResponse.status}）`,
    );
  const init = (await initResponse.json().catch(() => ({}))) as InitAnswer;
  if (!init.uploadId || !init.chunkSize || !init.totalChunks)
    throw new UploadFailed(UPLOAD_MESSAGES.noUploadId);
  const { uploadId, chunkSize, totalChunks } = init;
  storage()?.setItem(key, uploadId);

  let index = init.receivedChunks ?? 0;
  onProgress(Math.min(index * chunkSize, file.size), file.size);
  while (index < totalChunks) {
    const start = index * chunkSize;
    const chunk = file.slice(start, Math.min(start + chunkSize, file.size));
    // The fields go first, so the server can stream the chunk straight into place.
    const form = new FormData();
    form.append("uploadId", uploadId);
    form.append("chunkIndex", String(index));
    form.append("chunk", chunk, "blob");
    let answer: { status: number; text: string } | null = null;
    for (let attempt = 0; attempt < 4; attempt++) {
      if (attempt > 0) await wait(1000 * 2 ** (attempt - 1));
      try {
        answer = await postChunk(`${base}/chunked-upload`, form, (loaded) =>
          onProgress(Math.min(start + loaded, file.size), file.size),
        );
      } catch (error) {
        if (attempt === 3) throw error;
        continue;
      }
      if (answer.status < 500) break;
    }
    if (!answer || answer.status !== 200) {
      if (answer?.status === 409) {
        // The server has fewer chunks than we thought (e.g. a restored backup): continue from its count.
        const status = await fetch(`${base}/chunked-status?uploadId=${uploadId}`, { credentials: "include" });
        const body = (await status.json().catch(() => ({}))) as InitAnswer;
        if (status.ok && typeof body.receivedChunks === "number" && body.receivedChunks < index) {
          index = body.receivedChunks;
          continue;
        }
      }
      // A chunk refused for its size or for the server's disk (413) says why, with the figures.
      const told = answer?.status === 413 ? messageIn(answer.text) : null;
      throw new UploadFailed(told ?? UPLOAD_MESSAGES.chunkFailed(answer?.status ?? 0));
    }
    index++;
    onProgress(Math.min(index * chunkSize, file.size), file.size);
  }

  const completeResponse = await fetch(`${base}/chunked-complete`, {
    method: "POST",
    credentials: "include",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ uploadId }),
  }).catch(() => {
    throw new UploadFailed(UPLOAD_MESSAGES.general);
  });
  if (!completeResponse.ok) {
    // A refused file (wrong type) cannot be resumed: forget it.
    if (completeResponse.status === 415 || completeResponse.status === 404) storage()?.removeItem(key);
    throw new UploadFailed(
      (await messageOf(completeResponse)) ?? `${UPLOAD_MESSAGES.general}（${completeResponse.status}）`,
    );
  }
  storage()?.removeItem(key);
  return completeResponse.json();
}
