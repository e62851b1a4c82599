import { redirectToPage } from "./security-headers.server";
import { commitSession, getSession, type Toast } from "./session.server";

/** Redirects and shows a toast on the next page; the toast travels in the session, so it shows without JS. */
export async function redirectWithToast(request: Request, to: string, toast: Toast, init: ResponseInit = {}) {
  const session = await getSession(request);
  session.flash("toast", toast);
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await commitSession(session));
  return redirectToPage(to, { ...init, headers });
}

/** Reads (and so consumes) the pending toast. The caller must commit the session. */
export async function takeToast(request: Request) {
  const session = await getSession(request);
  const toast = session.get("toast") ?? null;
  return { toast, session };
}
