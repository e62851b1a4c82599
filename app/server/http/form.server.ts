import { data } from "@remix-run/node";

/** Forms here are a few short fields; anything much larger is not one of ours. */
export const MAX_FORM_BYTES = 64 * 1024;

/**
 * The highest list index a form of ours posts is under a hundred (50 order lines, the price
 * description's rows). conform turns a name like `items[99999].athleteId` into a list of
 * 100,000 entries, each then validated and sent back with its error: a 100-byte post cost
 * ~10 s of the server's only thread and a 15 MB answer (the fuzz test's "no answer within
 * 30 s"). Such a form is refused before anything parses it.
 */
const MAX_LIST_INDEX = 999;

function namesListIndexOver(form: FormData, max: number): boolean {
  for (const name of form.keys())
    for (const [, index] of name.matchAll(/\[(\d+)\]/g)) if (Number(index) > max) return true;
  return false;
}

/** Room for a multipart body's boundaries, part headers and small fields beside its file. */
export const MULTIPART_SLACK_BYTES = 64 * 1024;

/**
 * Whether the body's declared Content-Length is over `maxBytes`: such a body is refused with
 * 413 before any of it is read (the server entry closes the connection behind the answer).
 * A body without Content-Length (chunked) is read up to its limit.
 */
export function declaredOver(request: Request, maxBytes: number): boolean {
  const length = Number(request.headers.get("Content-Length") ?? "");
  return Number.isFinite(length) && length > maxBytes;
}

/**
 * The body, or null when it is over the limit: at once when its Content-Length says so, and a
 * chunked body as soon as it passes the limit (reading stops there; the server entry closes the
 * connection behind the 413, so nothing more is read).
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
    // A body that broke off (the caller went away, or the server entry stopped it at the route's
    // limit and has answered 413 itself) is as good as one too large: nobody is left to answer.
    const read = await reader.read().catch(() => null);
    if (read === null) return null;
    const { done, value } = read;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      void reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
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
 * input with its own Japanese messages and a 4xx, never a 500. A list index no form of ours
 * sends is refused with 400 (`MAX_LIST_INDEX`).
 */
export async function readForm(request: Request): Promise<FormData> {
  const body = await readBody(request);
  if (!body) throw data("送信内容が大きすぎます", { status: 413 });
  let form: FormData;
  try {
    form = await new Response(body, {
      headers: { "Content-Type": request.headers.get("Content-Type") ?? "" },
    }).formData();
  } catch {
    return new FormData();
  }
  if (namesListIndexOver(form, MAX_LIST_INDEX)) throw data("送信内容が正しくありません", { status: 400 });
  return form;
}

/** The raw body as text (for signed payloads, which must not be parsed first), or null when over `maxBytes`. */
export async function readText(request: Request, maxBytes: number): Promise<string | null> {
  const body = await readBody(request, maxBytes);
  return body && new TextDecoder().decode(body);
}
