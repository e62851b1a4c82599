import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { logOut } from "~/server/auth/login/session-login.server";
import { commitSession, getSession } from "~/server/http/session.server";

/** Ends the admin session (and the login behind it) with the spec's toast. POST only. */
export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request);
  logOut(session);
  session.flash("toast", {
    kind: "info",
    title: "ログアウトしました",
    description: "管理者セッションを終了しました。",
  });
  return redirect("/admin-login", { headers: { "Set-Cookie": await commitSession(session) } });
}

export function loader() {
  return redirect("/admin");
}
