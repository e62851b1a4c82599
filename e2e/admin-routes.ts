/**
 * Every admin page, action and API, in one place. The access matrix requests each of
 * them as every kind of visitor who must not get in. A new admin feature adds its routes here.
 */
export type AdminRoute = { method: "GET" | "POST" | "PATCH" | "DELETE"; path: string; kind: "page" | "api"; form?: Record<string, string>; /** What an admin gets when the id in the path names nothing (default 200). */ adminStatus?: number };

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
  { method: "GET", path: "/api/admin/security-dashboard", kind: "api" },
  { method: "GET", path: "/admin/contest/1/content", kind: "page" },
  { method: "POST", path: "/admin/contest/1/content", kind: "page", form: { intent: "delete", mediaId: "1" } },
  { method: "POST", path: "/admin/contest/1/content", kind: "page", form: { intent: "move", mediaId: "1", direction: "down" } },
  { method: "POST", path: "/admin/contest/1/content", kind: "page", form: { intent: "remove-thumbnail", mediaId: "1" } },
  { method: "POST", path: "/admin/contest/1/content", kind: "page", form: { intent: "discard-upload", uploadId: "0".repeat(32) } },
  { method: "GET", path: "/admin/contest/1/media/999999", kind: "page", adminStatus: 404 },
  { method: "POST", path: "/api/video/contests/1/media/chunked-init", kind: "api", form: { fileName: "x.mp4", fileSize: "10", contentType: "video/mp4", mediaType: "video" } },
  { method: "POST", path: "/api/video/contests/1/media/chunked-upload", kind: "api", form: { uploadId: "0".repeat(32), chunkIndex: "0" } },
  { method: "POST", path: "/api/video/contests/1/media/chunked-complete", kind: "api", form: { uploadId: "0".repeat(32) } },
  { method: "GET", path: `/api/video/contests/1/media/chunked-status?uploadId=${"0".repeat(32)}`, kind: "api", adminStatus: 404 },
  { method: "PATCH", path: "/api/video/contests/1/media/1", kind: "api", form: { displayOrder: "0" } },
  { method: "DELETE", path: "/api/video/contests/1/media/1", kind: "api" },
  { method: "POST", path: "/api/video/contests/1/media/1/thumbnail", kind: "api", form: { data: "data:image/png;base64,AAAA" } },
  { method: "DELETE", path: "/api/video/contests/1/media/1/thumbnail", kind: "api" },
];
