/**
 * A JSON (or form-encoded) request body as a plain object, read with a size limit, so the
 * media API answers bad or oversized input with a 4xx instead of a 500.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; status: 400 | 413 }> {
  if (!request.body) return { ok: true, value: {} };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    // Read to the end even when too big: answering early resets the connection instead.
    if (total <= maxBytes) chunks.push(value);
  }
  if (total > maxBytes) return { ok: false, status: 413 };
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return { ok: true, value: {} };
  const type = request.headers.get("Content-Type") ?? "";
  if (type.startsWith("application/x-www-form-urlencoded")) return { ok: true, value: Object.fromEntries(new URLSearchParams(text)) };
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return { ok: true, value: value as Record<string, unknown> };
  } catch {
    // not JSON
  }
  return { ok: false, status: 400 };
}
