import { eq } from "drizzle-orm";
import { db } from "./db/client.server";
import { users } from "./db/schema";
import { getSession, type ShopSession } from "./session.server";

export type CurrentUser = { id: number; email: string; name: string; isAdmin: boolean };

/**
 * The logged-in user, or null. A session whose version is older than the user's
 * (after a password change) no longer counts.
 */
export async function getCurrentUser(requestOrSession: Request | ShopSession): Promise<CurrentUser | null> {
  const session = requestOrSession instanceof Request ? await getSession(requestOrSession) : requestOrSession;
  const userId = session.get("userId");
  if (!userId) return null;
  const user = db()
    .select({ id: users.id, email: users.email, name: users.name, isAdmin: users.isAdmin, sessionVersion: users.sessionVersion })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!user || user.sessionVersion !== session.get("sessionVersion")) return null;
  return { id: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin };
}
