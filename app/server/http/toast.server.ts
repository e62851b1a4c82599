import { redirect, redirectDocument } from "@remix-run/node";
import { isPaymentPage } from "./security-headers.server";
import { commitSession, getSession, type Toast } from "./session.server";

/** Redirects and shows a toast on the next page; the toast travels in the session, so it shows without JS. */
export async function redirectWithToast(request: Request, to: string, toast: Toast, init: ResponseInit = {}) {
  const session = await getSession(request);
  session.flash("toast", toast);
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await commitSession(session));
  // A page with its own security policy (the payment page) is always loaded as a document. Sent
  // there as a document at once: its data request would run the loaders, take the toast from the
  // session, and then be answered only with "load the document" (handleDataRequest), losing it.
  const send = isPaymentPage(new URL(to, "http://shop.invalid").pathname) ? redirectDocument : redirect;
  return send(to, { ...init, headers });
}

/** Reads (and so consumes) the pending toast. The caller must commit the session. */
export async function takeToast(request: Request) {
  const session = await getSession(request);
  const toast = session.get("toast") ?? null;
  return { toast, session };
}
