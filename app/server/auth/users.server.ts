import { redirect } from "@remix-run/node";
import { eq, sql } from "drizzle-orm";
import { now } from "../core/clock.server";
import { prepared } from "../db/prepared.server";
import { users } from "../db/schema";
import { getSession, SESSION_MAX_AGE_SECONDS, type ShopSession } from "../http/session.server";
import { SECOND_MS } from "~/lib/rules/tokyo-date";

export type CurrentUser = { id: number; email: string; name: string; isAdmin: boolean };

/**
 * The logged-in user, or null. A session ended elsewhere has no row any more and so no user;
 * one logged in more than 30 days ago does not count (the cookie's maxAge is only a request
 * to the browser).
 */
export async function getCurrentUser(requestOrSession: Request | ShopSession): Promise<CurrentUser | null> {
  const session = requestOrSession instanceof Request ? await getSession(requestOrSession) : requestOrSession;
  const userId = session.get("userId");
  if (!userId) return null;
  const loggedInAt = session.get("loggedInAt");
  if (!loggedInAt || now().getTime() - loggedInAt > SESSION_MAX_AGE_SECONDS * SECOND_MS) return null;
  // Every page of a logged-in user asks (the root, a layout, the page): prepared once.
  const user = prepared("current-user", (connection) =>
    connection
      .select({ id: users.id, email: users.email, name: users.name, isAdmin: users.isAdmin })
      .from(users)
      .where(eq(users.id, sql.placeholder("userId")))
      .prepare(),
  ).get({ userId });
  return user ?? null;
}

/** The logged-in user, or a redirect to /login that comes back to this page afterwards. */
export async function requireUser(request: Request): Promise<{ user: CurrentUser; session: ShopSession }> {
  const session = await getSession(request);
  const user = await getCurrentUser(session);
  if (!user) {
    const url = new URL(request.url);
    const back = encodeURIComponent(`${url.pathname}${url.search}`).replace(/%2F/g, "/");
    throw redirect(`/login?redirectTo=${back}`);
  }
  return { user, session };
}
