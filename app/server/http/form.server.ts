import { data } from "@remix-run/node";

/** Forms here are a few short fields; anything much larger is not one of ours. */
const MAX_FORM_BYTES = 64 * 1024;

/**
 * The body, or null when it is over the limit. An oversized body is still read to its end
 * (and thrown away, so memory stays small): answering before the client has finished
 * sending makes the connection reset instead of showing the 413.
 */
async function readBody(
  request: Request,
  maxBytes = MAX_FORM_BYTES,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!request.body) return new Uint8Array(0);
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
