/**
 * A body nobody read: refused by its Content-Length (413 before any of it is read), or posted
 * to an action that had no use for it. Its unread rest cannot stay in the connection: the next
 * request of a kept-alive connection would be parsed after it and fail. Closing the connection
 * at once is no better: the kernel then resets it while the client is still sending, and a
 * client that had not yet read the answer loses it (Node's HTTP client on a busy machine saw
 * EPIPE instead of the 413). So the rest is read and thrown away behind the answer, as web
 * servers do on a lingering close, and the connection stays usable; only a rest too large or too
 * slow to wait for ends the connection.
 */

/** The most of an unread body that is read and thrown away, and how long that may take. */
const DISCARD_MAX_BYTES = 64 * 1024 * 1024;
const DISCARD_MAX_MS = 30_000;

export function bodyLeftUnread(request: Request): boolean {
  return request.body !== null && !request.bodyUsed;
}

/**
 * Starts throwing away the unread body of `request` in the background, and says whether it did:
 * false when the declared rest is over the limit or the body is already taken (the answer then
 * closes the connection). Past either limit the reading is cancelled, which ends the connection.
 */
export function discardUnreadBody(request: Request): boolean {
  const body = request.body;
  const declared = request.headers.get("Content-Length");
  if (!body || body.locked || (declared !== null && !(Number(declared) <= DISCARD_MAX_BYTES))) return false;
  const reader = body.getReader();
  const timer = setTimeout(() => void reader.cancel().catch(() => undefined), DISCARD_MAX_MS);
  timer.unref();
  void (async () => {
    let left = DISCARD_MAX_BYTES;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        left -= value.byteLength;
        if (left < 0) {
          await reader.cancel();
          break;
        }
      }
    } catch {
      // The client went away: nothing left to read.
    } finally {
      clearTimeout(timer);
    }
  })();
  return true;
}
