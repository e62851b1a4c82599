import { positiveId } from "~/lib/rules/params";
import { deleteUser } from "~/server/accounts/user-admin.server";
import { requireApiAdmin } from "~/server/auth/tokens/api-access.server";
import { logOut } from "~/server/auth/login/session-login.server";
import { apiError, jsonApi, apiJson } from "~/server/http/json-api.server";
import { commitSession } from "~/server/http/session.server";

/**
 * Deletes an account, as ユーザー管理's 削除 does (the last admin stays: 409). An admin who
 * deletes their own account is logged out of this session (its cookie cleared).
 */
export const loader = jsonApi({
  async DELETE({ request, params }) {
    const caller = await requireApiAdmin(request);
    const id = positiveId(params.id);
    const result = id ? deleteUser(caller.admin.id, id) : null;
    if (!result || (!result.ok && result.reason === "not-found"))
      return apiError(404, "ユーザーが見つかりません");
    if (!result.ok) return apiError(409, result.message);
    if (!result.self || caller.via !== "session")
      return apiJson({ deletedUserEmail: result.deletedUserEmail, loggedOut: false });
    // The account behind this session is gone: the session ends with it.
    logOut(caller.session);
    return apiJson(
      { deletedUserEmail: result.deletedUserEmail, loggedOut: true },
      { headers: { "Set-Cookie": await commitSession(caller.session) } },
    );
  },
});
export const action = loader;
