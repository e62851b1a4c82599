import { apiError } from "../../http/json-api.server";
import { hitOriginLimit, retryAfterHeaders } from "../../http/rate-limit.server";
import { getSession, type ShopSession } from "../../http/session.server";
import type { ApiTokenScope } from "../../db/schema";
import { currentAdmin } from "../admin-session.server";
import { checkApiToken } from "./api-tokens.server";
import { recordLoginEvent } from "../login/login-events.server";
import { getCurrentUser, type CurrentUser } from "../users.server";
import { MINUTE_MS } from "~/lib/rules/tokyo-date";

/**
 * Who is calling the JSON API. An admin call is either the admin's browser (the cookie, second
 * factor done, the 60-minute admin window) or a script with an API token (`Authorization:
 * Bearer …`, api-tokens.server.ts). A request that names a token is judged by the token
 * alone, whatever cookie it also carries, and every such request is written to the login
 * records (the security dashboard lists them).
 */

export type ApiAdmin =
  | { admin: CurrentUser; via: "session"; session: ShopSession }
  | { admin: CurrentUser; via: "token"; tokenId: number; scope: ApiTokenScope };

/** Refused tokens one client address may send in 15 minutes before it is answered 429. */
const REFUSED_TOKENS_PER_ORIGIN = { limit: 30, windowMs: 15 * MINUTE_MS };

const unauthorized = (message = "認証が必要です") =>
  apiError(401, message, { headers: { "WWW-Authenticate": 'Bearer realm="api"' } });

/** The token a request names, null when it names none; "" when the header is not a bearer token. */
function bearerToken(request: Request): string | null {
  const header = request.headers.get("Authorization");
  if (header === null) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? "";
}

async function tokenAdmin(request: Request, token: string): Promise<ApiAdmin> {
  const checked = token ? checkApiToken(token) : null;
  if (checked?.ok) {
    recordLoginEvent({
      kind: "admin",
      email: checked.admin.email,
      userId: checked.admin.id,
      outcome: "api-token",
      request,
    });
    return {
      admin: { ...checked.admin, isAdmin: true },
      via: "token",
      tokenId: checked.tokenId,
      scope: checked.scope,
    };
  }
  const limited = hitOriginLimit(
    request,
    "api-token-refused",
    REFUSED_TOKENS_PER_ORIGIN.limit,
    REFUSED_TOKENS_PER_ORIGIN.windowMs,
  );
  if (!limited.allowed)
    throw apiError(429, "APIトークンの誤りが続いたため、しばらく受け付けません", {
      headers: retryAfterHeaders({ status: 429, retryAfterSeconds: limited.retryAfterSeconds }),
    });
  recordLoginEvent({
    kind: "admin",
    email: checked?.email ?? "（不明なAPIトークン）",
    userId: checked?.userId ?? null,
    outcome: "api-token-refused",
    request,
  });
  throw unauthorized(
    checked?.message ?? "Authorization ヘッダーは「Bearer <APIトークン>」の形で送ってください",
  );
}

/**
 * The admin behind an API call, or null for anyone else. A bad token is not "anyone else":
 * it is answered 401 at once, so a script learns its token is wrong instead of seeing the
 * public view of a list.
 */
export async function apiAdmin(request: Request): Promise<ApiAdmin | null> {
  const token = bearerToken(request);
  if (token !== null) return tokenAdmin(request, token);
  const context = await currentAdmin(request);
  return context ? { ...context, via: "session" } : null;
}

/**
 * For admin API calls: the admin, or 401. A read-only token may only read (GET and HEAD);
 * anything else with it is 403.
 */
export async function requireApiAdmin(request: Request): Promise<ApiAdmin> {
  const caller = await apiAdmin(request);
  if (!caller) throw unauthorized();
  if (caller.via === "token" && caller.scope !== "write" && !["GET", "HEAD"].includes(request.method))
    throw apiError(403, "このAPIトークンは読み取り専用です");
  return caller;
}

/** For a customer's own calls (/api/user, …): the logged-in user and the session, or 401. */
export async function requireApiUser(request: Request): Promise<{ user: CurrentUser; session: ShopSession }> {
  const session = await getSession(request);
  const user = await getCurrentUser(session);
  if (!user) throw unauthorized();
  return { user, session };
}

/**
 * For the calls that change how the admin logs in (the authenticator app): the admin's own
 * browser session, as its screen requires. An API token acts without the second factor, so it
 * may not change the second factor (403).
 */
export async function requireApiAdminSession(
  request: Request,
): Promise<Extract<ApiAdmin, { via: "session" }>> {
  const caller = await requireApiAdmin(request);
  if (caller.via !== "session")
    throw apiError(403, "2段階認証の設定は、管理者としてログインしたブラウザからのみ変更できます");
  return caller;
}
