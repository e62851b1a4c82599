import { data } from "@remix-run/node";

/** Forms here are a few short fields; anything much larger is not one of ours. */
const MAX_FORM_BYTES = 64 * 1024;

/** Room for a multipart body's boundaries, part headers and small fields beside its file. */
export const MULTIPART_SLACK_BYTES = 64 * 1024;

/**
 * Whether the body's declared Content-Length is over `maxBytes`: such a body is refused with
 * 413 before any of it is read (its rest is thrown away behind the answer: unread-body.server.ts).
 * A body without Content-Length (chunked) is read within its limit.
 */
export function declaredOver(request: Request, maxBytes: number): boolean {
  const length = Number(request.headers.get("Content-Length") ?? "");
  return Number.isFinite(length) && length > maxBytes;
}

/**
 * The body, or null when it is over the limit: at once when its Content-Length says so;
 * a chunked body is read to its end (and thrown away past the limit, so memory stays small).
 */
async function readBody(
  request: Request,
  maxBytes = MAX_FORM_BYTES,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!request.body) return new Uint8Array(0);
  if (declaredOver(request, maxBytes)) return null;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total <= maxBytes) chunks.push(value);
  }
  if (total > maxBytes) return null;
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/**
 * The posted form, read with a size limit (with or without Content-Length), or an empty
 * form when the body is not a form at all (JSON, garbage): every action then answers bad
 * input with its own Japanese messages and a 4xx, never a 500.
 */
export async function readForm(request: Request): Promise<FormData> {
  const body = await readBody(request);
  if (!body) throw data("送信内容が大きすぎます", { status: 413 });
  try {
    return await new Response(body, {
      headers: { "Content-Type": request.headers.get("Content-Type") ?? "" },
    }).formData();
  } catch {
    return new FormData();
  }
}

/** The raw body as text (for signed payloads, which must not be parsed first), or null when over `maxBytes`. */
export async function readText(request: Request, maxBytes: number): Promise<string | null> {
  const body = await readBody(request, maxBytes);
  return body && new TextDecoder().decode(body);
}
