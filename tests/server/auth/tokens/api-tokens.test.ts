import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as dashboardRoute from "~/routes/api/security-dashboard";
import * as mediaItemRoute from "~/routes/api/media/item";
import * as chunkedInitRoute from "~/routes/api/media/chunked-init";
import * as securityPage from "~/routes/admin/security";
import { setClock } from "~/server/core/clock.server";
import { createContest } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { apiTokens, loginEvents, users } from "~/server/db/schema";
import { checkPassword } from "~/server/auth/login/password-step.server";
import { revokeApiToken } from "~/server/auth/tokens/api-tokens.server";
import { securityDashboard } from "~/server/auth/security-dashboard.server";
import { protectionSettings } from "~/server/auth/login-audit.server";
import { adminWithToken, apiCall } from "../../../helpers/api";
import { createUser, loginPost } from "../../../helpers/accounts";
import { callRoute } from "../../../helpers/route";
import { adminCookie, formRequest } from "../../../helpers/shop";

const DASHBOARD = "/api/admin/security-dashboard";
const eventsOf = (email: string) => db().select().from(loginEvents).where(eq(loginEvents.email, email)).all();

describe("admin API tokens", () => {
  it("a request with a token acts as its admin without the cookie, and is in the login records", async () => {
    const { admin, token, tokenId } = adminWithToken("read");
    const answer = await apiCall(dashboardRoute, "GET", DASHBOARD, { token });
    expect(answer.status).toBe(200);
    expect(answer.data).toHaveProperty("dashboard.loginSecurity");
    expect(eventsOf(admin.email).map((event) => event.outcome)).toEqual(["api-token"]);
    const row = db().select().from(apiTokens).where(eq(apiTokens.id, tokenId)).get();
    expect(row?.lastUsedAt).toBeInstanceOf(Date);
    // Only the hash is kept: the database alone gives no working token.
    expect(JSON.stringify(row)).not.toContain(token.slice(4));
  });

  it("without a token or a cookie the admin API answers 401 with the spec's Unauthorized", async () => {
    const answer = await apiCall(dashboardRoute, "GET", DASHBOARD);
    expect(answer.status).toBe(401);
    expect(answer.data).toMatchObject({ error: "Unauthorized" });
    expect(answer.headers.get("WWW-Authenticate")).toContain("Bearer");
  });

  it("attack: a read-only token cannot change anything (403), a write token can", async () => {
    const contestId = createContest(`トークン大会${Math.random()}`);
    const path = `/api/video/contests/${contestId}/media/999`;
    const params = { id: String(contestId), mediaId: "999" };
    const reader = adminWithToken("read");
    const refused = await apiCall(mediaItemRoute, "DELETE", path, { token: reader.token, params });
    expect(refused.status).toBe(403);
    expect(refused.data).toMatchObject({ message: "このAPIトークンは読み取り専用です" });
    const writer = adminWithToken("write");
    // Past the scope check: the media item does not exist.
    expect((await apiCall(mediaItemRoute, "DELETE", path, { token: writer.token, params })).status).toBe(404);
  });

  it("attack: a revoked token, an expired one and one whose owner is no longer an admin are refused and recorded", async () => {
    const revoked = adminWithToken("write");
    revokeApiToken(revoked.tokenId);
    const revokedAnswer = await apiCall(dashboardRoute, "GET", DASHBOARD, { token: revoked.token });
    expect(revokedAnswer.status).toBe(401);
    expect(revokedAnswer.data).toMatchObject({ message: "このAPIトークンは無効化されています" });
    expect(eventsOf(revoked.admin.email).map((event) => event.outcome)).toEqual(["api-token-refused"]);

    const expiring = adminWithToken("write", "30");
    setClock(() => Date.now() + 31 * 24 * 60 * 60 * 1000);
    try {
      const expired = await apiCall(dashboardRoute, "GET", DASHBOARD, { token: expiring.token });
      expect(expired.status).toBe(401);
      expect(expired.data).toMatchObject({ message: "このAPIトークンは有効期限が切れています" });
    } finally {
      setClock(null);
    }

    const demoted = adminWithToken("write");
    db().update(users).set({ isAdmin: false }).where(eq(users.id, demoted.admin.id)).run();
    expect((await apiCall(dashboardRoute, "GET", DASHBOARD, { token: demoted.token })).status).toBe(401);
  });

  it("attack: a guessed token is refused, and guessing from one address is stopped (429)", async () => {
    const ip = "203.0.113.91";
    let last = 0;
    for (let i = 0; i < 31; i++)
      last = (await apiCall(dashboardRoute, "GET", DASHBOARD, { token: `cvs_guess${i}`, ip })).status;
    expect(last).toBe(429);
  });

  it("attack: a bad token is not helped by a valid admin cookie sent with it", async () => {
    const cookie = await adminCookie();
    const answer = await apiCall(dashboardRoute, "GET", DASHBOARD, { token: "cvs_stolen", cookie });
    expect(answer.status).toBe(401);
    // The cookie alone still works.
    expect((await apiCall(dashboardRoute, "GET", DASHBOARD, { cookie })).status).toBe(200);
  });

  it("attack: a script's token use does not reset a password guesser's run at the admin login", async () => {
    const admin = await createUser(`guarded-${Math.random()}@example.jp`, "Right-Password-2025", {
      isAdmin: true,
    });
    const { createApiToken } = await import("~/server/auth/tokens/api-tokens.server");
    const { token } = createApiToken(admin.id, { name: "夜間スクリプト", scope: "read", lifetime: "90" });
    const attempt = () =>
      checkPassword(
        loginPost(
          "203.0.113.44",
          { email: admin.email, password: "wrong-guess" },
          "http://localhost/admin-login",
        ),
        "admin",
      );
    for (let i = 0; i < 4; i++) {
      await attempt();
      await apiCall(dashboardRoute, "GET", DASHBOARD, { token });
    }
    const fifth = await attempt();
    expect(fifth.checked && !fifth.result.ok && fifth.result.status).toBe(423);
  });

  it("token events are listed on the dashboard apart from the login figures", async () => {
    const { admin, token } = adminWithToken("read");
    const before = securityDashboard("24h", protectionSettings());
    await apiCall(dashboardRoute, "GET", DASHBOARD, { token });
    const after = securityDashboard("24h", protectionSettings());
    expect(after.apiTokens.uses).toBe(before.apiTokens.uses + 1);
    expect(after.loginSecurity.totalLoginAttempts).toBe(before.loginSecurity.totalLoginAttempts);
    expect(after.recentEvents.find((event) => event.email === admin.email)).toMatchObject({
      type: "api_token_use",
      outcome: "api-token",
    });
  });
});

describe("the security page's APIトークン tab", () => {
  it("makes a token shown once, lists it without the token, and revokes it", async () => {
    const cookie = await adminCookie();
    const made = await callRoute(
      securityPage.action,
      formRequest(
        "/admin/security?tab=tokens",
        [
          ["intent", "token-create"],
          ["name", "納品スクリプト"],
          ["scope", "write"],
          ["lifetime", "90"],
        ],
        cookie,
      ),
    );
    expect(made.status).toBe(200);
    const created = (made.data as { created: { token: string } }).created;
    expect(created.token).toMatch(/^cvs_[\w-]{43}$/);
    expect((await apiCall(dashboardRoute, "GET", DASHBOARD, { token: created.token })).status).toBe(200);

    const page = await callRoute(
      securityPage.loader,
      new Request("http://shop.test/admin/security?tab=tokens", { headers: { Cookie: cookie } }),
    );
    const tokens = (page.data as { tokens: { id: number; name: string; lastUsedAt: Date | null }[] }).tokens;
    const listed = tokens.find((token) => token.name === "納品スクリプト");
    expect(listed?.lastUsedAt).toBeInstanceOf(Date);
    expect(JSON.stringify(page.data)).not.toContain(created.token);

    const revoked = await callRoute(
      securityPage.action,
      formRequest(
        "/admin/security?tab=tokens",
        [
          ["intent", "token-revoke"],
          ["tokenId", String(listed?.id)],
        ],
        cookie,
      ),
    );
    expect(revoked.status).toBe(303);
    expect((await apiCall(dashboardRoute, "GET", DASHBOARD, { token: created.token })).status).toBe(401);
  });

  it("refuses a token without a name, keeping the choices (400)", async () => {
    const cookie = await adminCookie();
    const refused = await callRoute(
      securityPage.action,
      formRequest(
        "/admin/security?tab=tokens",
        [
          ["intent", "token-create"],
          ["name", "  "],
          ["scope", "read"],
          ["lifetime", "none"],
        ],
        cookie,
      ),
    );
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({
      created: null,
      result: {
        error: { name: ["トークンの名前を入力してください"] },
        initialValue: { scope: "read", lifetime: "none" },
      },
    });
  });

  it("is for admins only", async () => {
    const customer = await adminCookie({ isAdmin: false });
    const answer = await callRoute(
      securityPage.action,
      formRequest(
        "/admin/security?tab=tokens",
        [
          ["intent", "token-create"],
          ["name", "x"],
          ["scope", "write"],
          ["lifetime", "90"],
        ],
        customer,
      ),
    );
    expect(answer.status).toBe(302);
    expect(answer.location).toBe("/admin-login");
  });
});

describe("the JSON API's answers", () => {
  it("a method a call does not answer is 405 with Allow; OPTIONS lists them", async () => {
    const wrong = await apiCall(dashboardRoute, "POST", DASHBOARD, { json: {} });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("Allow")).toBe("GET, HEAD");
    expect(wrong.data).toMatchObject({ error: "Method Not Allowed" });
    const options = await apiCall(dashboardRoute, "OPTIONS", DASHBOARD);
    expect(options.status).toBe(204);
    expect(options.headers.get("Allow")).toBe("GET, HEAD");
  });

  it("a body that is not JSON is 400, too big 413, a bad field 422 with the messages per field", async () => {
    const contestId = createContest(`検証大会${Math.random()}`);
    const { token } = adminWithToken("write");
    const params = { id: String(contestId) };
    const path = `/api/video/contests/${contestId}/media/chunked-init`;
    const send = (body: string) =>
      callRoute(
        chunkedInitRoute.action,
        new Request(`http://shop.test${path}`, {
          method: "POST",
          body,
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        }),
        params,
      );
    expect((await send("{not json")).status).toBe(400);
    expect((await send(JSON.stringify({ fileName: "x".repeat(20_000) }))).status).toBe(413);
    const invalid = await send(JSON.stringify({ fileName: "", fileSize: -1, mediaType: "audio" }));
    expect(invalid.status).toBe(422);
    expect(invalid.data).toMatchObject({
      error: "入力エラー",
      fields: {
        fileName: ["ファイル名がありません"],
        fileSize: ["空のファイルはアップロードできません"],
        mediaType: ["mediaType は video か image を指定してください"],
      },
    });
  });
});
