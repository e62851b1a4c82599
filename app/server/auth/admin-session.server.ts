import { redirect } from "@remix-run/node";
import { now } from "../core/clock.server";
import { commitSession, getSession, type ShopSession } from "../http/session.server";
import { getCurrentUser, type CurrentUser } from "./users.server";
import { HOUR_MS, MINUTE_MS } from "~/lib/rules/tokyo-date";

/** The admin session lasts 60 minutes from the completed second factor. */
export const ADMIN_SESSION_MS = HOUR_MS;

export type AdminContext = { admin: CurrentUser; session: ShopSession };

/** The admin behind this request, or null: admin role, second factor done, session younger than 60 minutes. */
export async function currentAdmin(request: Request): Promise<AdminContext | null> {
  const session = await getSession(request);
  const verifiedAt = session.get("adminVerifiedAt");
  if (
    !verifiedAt ||
    now().getTime() - verifiedAt >= ADMIN_SESSION_MS ||
    verifiedAt > now().getTime() + MINUTE_MS
  )
    return null;
  const admin = await getCurrentUser(session);
  if (!admin?.isAdmin) return null;
  return { admin, session };
}

/** For admin pages: anyone else goes to /admin-login with the toast 認証が必要です. */
export async function requireAdminPage(request: Request): Promise<AdminContext> {
  const context = await currentAdmin(request);
  if (context) return context;
  const session = await getSession(request);
  session.unset("adminVerifiedAt");
  session.flash("toast", {
    kind: "error",
    title: "認証が必要です",
    description: "管理者としてログインしてください。",
  });
  throw redirect("/admin-login", { headers: { "Set-Cookie": await commitSession(session) } });
}
