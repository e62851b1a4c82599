/**
 * Every admin page, action and API, in one place. The access matrix requests each of
 * them as every kind of visitor who must not get in. A new admin feature adds its routes here.
 */
export type AdminRoute = { method: "GET" | "POST" | "PATCH" | "DELETE"; path: string; kind: "page" | "api"; form?: Record<string, string> };

export const ADMIN_ROUTES: AdminRoute[] = [
  { method: "GET", path: "/admin", kind: "page" },
  { method: "POST", path: "/admin?index", kind: "page", form: { intent: "toggle-video", contestId: "1" } },
  { method: "POST", path: "/admin?index", kind: "page", form: { intent: "toggle-photo", contestId: "1" } },
  { method: "GET", path: "/admin/contests/new", kind: "page" },
  { method: "POST", path: "/admin/contests/new", kind: "page", form: { name: "侵入テスト大会" } },
  { method: "GET", path: "/admin/contests/1/delete", kind: "page" },
  { method: "POST", path: "/admin/contests/1/delete", kind: "page", form: {} },
  { method: "GET", path: "/admin/security", kind: "page" },
  { method: "GET", path: "/admin/security?tab=logins", kind: "page" },
  { method: "POST", path: "/admin/security", kind: "page", form: { userId: "1" } },
  { method: "GET", path: "/admin/two-factor-setup", kind: "page" },
  { method: "POST", path: "/admin/two-factor-setup", kind: "page", form: { code: "123456" } },
  { method: "GET", path: "/admin/sales", kind: "page" },
  { method: "GET", path: "/admin/sales?contest=x&from=2025-01-01&to=2025-12-31", kind: "page" },
  { method: "GET", path: "/admin/sales.csv", kind: "page" },
  { method: "GET", path: "/admin/users", kind: "page" },
  { method: "GET", path: "/admin/users/1/delete", kind: "page" },
  { method: "POST", path: "/admin/users/1/delete", kind: "page", form: {} },
  { method: "GET", path: "/admin/orders", kind: "page" },
  { method: "GET", path: "/admin/orders?tab=handled&q=1", kind: "page" },
  ...["complete", "deliver", "resend", "extend", "reset-line-1"].map((intent) => ({ method: "POST" as const, path: "/admin/orders", kind: "page" as const, form: { orderId: "1", intent, "url-1": "https://example.com/x.mp4" } })),
  { method: "GET", path: "/admin/contest/1/settings", kind: "page" },
  ...["basic", "category-add", "category-delete", "format-add", "format-rename", "format-delete", "format-move", "price", "publication"].map((intent) => ({
    method: "POST" as const,
    path: "/admin/contest/1/settings",
    kind: "page" as const,
    form: { intent, name: "侵入テスト", bibNumberLabel: "x", categoryId: "1", formatId: "1", direction: "up", status: "公開", "items[0].name": "x", "items[0].price": "1" },
  })),
  { method: "GET", path: "/admin/contest/1/cover", kind: "page" },
  { method: "POST", path: "/admin/contest/1/cover", kind: "page", form: { cover: "not a file" } },
  { method: "GET", path: "/admin/contest/1", kind: "page" },
  { method: "GET", path: "/admin/contest/1?view=deleted&purge=1&select=all", kind: "page" },
  ...["add", "update", "delete", "restore", "purge", "bulk-update", "bulk-delete", "bulk-restore", "bulk-purge"].map((intent) => ({
    method: "POST" as const,
    path: "/admin/contest/1?index",
    kind: "page" as const,
    form: { intent, count: "1", id: "1", ids: "1", athleteNumber: "1", name: "侵入テスト", verticalVideoPrice: "0", horizontalVideoPrice: "0", videoStatus: "販売中", photoStatus: "販売中", confirm: "yes", reply: "fetcher" },
  })),
  { method: "GET", path: "/api/admin/security-dashboard", kind: "api" },
];
