import { requireApiAdmin } from "~/server/auth/tokens/api-access.server";
import { listUsers, USERS_PAGE_SIZE, userListQuery } from "~/server/accounts/user-admin.server";
import { jsonApi, apiJson } from "~/server/http/json-api.server";

/** ユーザー管理's list: newest first, searched by e-mail (`q`) and paged in SQL as the screen is. */
export const loader = jsonApi({
  async GET({ request }) {
    await requireApiAdmin(request);
    const { q, page } = userListQuery(new URL(request.url).searchParams);
    const { rows, matching, registered, pages } = listUsers({ q, page });
    return apiJson({
      users: rows.map((user) => ({
        id: user.id,
        username: user.email,
        isAdmin: user.isAdmin,
        createdAt: user.createdAt.toISOString(),
        lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
      })),
      page,
      pageSize: USERS_PAGE_SIZE,
      pages,
      total: matching,
      registered,
    });
  },
});
export const action = loader;
