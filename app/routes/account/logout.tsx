import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { logOut } from "~/server/auth/login/session-login.server";
import { commitSession, getSession } from "~/server/http/session.server";

/** Logout is POST only, so a link or a prefetch cannot log anyone out. */
export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request);
  logOut(session);
  session.flash("toast", { kind: "info", title: "ログアウトしました" });
  return redirect("/", { headers: { "Set-Cookie": await commitSession(session) } });
}

export function loader() {
  return redirect("/");
}
