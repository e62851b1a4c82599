import { readText } from "./form.server";

/**
 * A JSON (or form-encoded) request body as a plain object, read with a size limit, so the
 * media API answers bad or oversized input with a 4xx instead of a 500.
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; status: 400 | 413 }> {
  const text = await readText(request, maxBytes);
  if (text === null) return { ok: false, status: 413 };
  if (text.trim() === "") return { ok: true, value: {} };
  const type = request.headers.get("Content-Type") ?? "";
  if (type.startsWith("application/x-www-form-urlencoded"))
    return { ok: true, value: Object.fromEntries(new URLSearchParams(text)) };
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value))
      return { ok: true, value: value as Record<string, unknown> };
  } catch {
    // not JSON
  }
  return { ok: false, status: 400 };
}
