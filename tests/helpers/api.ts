import { db } from "~/server/db/client.server";
import { users, type ApiTokenScope } from "~/server/db/schema";
import { createApiToken, type ApiTokenLifetime } from "~/server/auth/tokens/api-tokens.server";
import { callRoute, type RouteResult } from "./route";

type RouteModule = { loader?: unknown; action?: unknown };
type Handler = Parameters<typeof callRoute>[0];

/**
 * One JSON API call against a route module, as Remix would make it: GET and HEAD reach the
 * loader, everything else the action. `json` is sent as the body with its content type;
 * `token` as `Authorization: Bearer …`; `ip` as the client's address (X-Shop-Client-Address).
 */
export function apiCall(
  route: RouteModule,
  method: string,
  path: string,
  options: {
    json?: unknown;
    token?: string;
    cookie?: string;
    params?: Record<string, string>;
    ip?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<RouteResult> {
  const headers = new Headers(options.headers);
  headers.set("X-Shop-Client-Address", options.ip ?? "198.51.100.20");
  if (options.json !== undefined) headers.set("Content-Type", "application/json");
  if (options.token !== undefined) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.cookie) headers.set("Cookie", options.cookie);
  const request = new Request(`http://shop.test${path}`, {
    method,
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const handler = (["GET", "HEAD"].includes(method) ? route.loader : route.action) as Handler;
  return callRoute(handler, request, options.params ?? {});
}

/** An admin and an API token of theirs. */
export function adminWithToken(scope: ApiTokenScope = "write", lifetime: ApiTokenLifetime = "90") {
  const admin = db()
    .insert(users)
    .values({
      email: `api-admin-${Math.random().toString(36).slice(2)}@example.jp`,
      passwordHash: "x",
      isAdmin: true,
    })
    .returning()
    .get();
  const { token, id } = createApiToken(admin.id, { name: "テスト用スクリプト", scope, lifetime });
  return { admin, token, tokenId: id };
}
