import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as listRoute from "~/routes/api/contests";
import * as itemRoute from "~/routes/api/contests/item";
import { toTokyoDateTimeInput } from "~/lib/schemas/contest-settings-schemas";
import { contestSettings } from "~/server/catalog/contest-settings.server";
import { createContest, listStorefrontContests } from "~/server/catalog/contests.server";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { athletes, contests, orders } from "~/server/db/schema";
import { adminWithToken, apiCall } from "../../helpers/api";
import { callRoute } from "../../helpers/route";
import { adminCookie, formRequest } from "../../helpers/shop";

let n = 0;
/** A name of its own per test: contests' slugs are unique. */
const uniqueName = (label = "API大会") => `${label}${Date.now().toString(36)}${++n}`;

const contestRow = (id: number) => db().select().from(contests).where(eq(contests.id, id)).get();

const item = (method: string, id: number | string, options: Parameters<typeof apiCall>[3] = {}) =>
  apiCall(itemRoute, method, `/api/video/contests/${id}`, { ...options, params: { id: String(id) } });

type ContestAnswer = Record<string, unknown> & { id: number; name: string };

describe("GET /api/video/contests", () => {
  it("shows visitors only the storefront's contests, and an admin every contest with its settings", async () => {
    const hidden = createContest(uniqueName("非公開の大会"));
    const shown = createContest(uniqueName("公開の大会"));
    db()
      .update(contests)
      .set({ videoPublished: true, sitePublicStatus: "公開" })
      .where(eq(contests.id, shown))
      .run();

    const visitor = await apiCall(listRoute, "GET", "/api/video/contests");
    expect(visitor.status).toBe(200);
    const visible = visitor.data as ContestAnswer[];
    expect(visible.map((c) => c.id)).toContain(shown);
    expect(visible.map((c) => c.id)).not.toContain(hidden);
    expect(Object.keys(visible[0]!).sort()).toEqual(
      ["bibNumberLabel", "coverImage", "id", "name", "videoPublished"].sort(),
    );
    // The answers differ by who asks: a cache must not hand the visitors' to an admin.
    expect(visitor.headers.get("Vary")).toBe("Cookie, Authorization");

    const { token } = adminWithToken("read");
    const admin = await apiCall(listRoute, "GET", "/api/video/contests", { token });
    expect(admin.status).toBe(200);
    expect(admin.headers.get("Cache-Control")).toBe("private, no-store");
    const all = admin.data as ContestAnswer[];
    expect(all.find((c) => c.id === hidden)).toMatchObject({
      videoPublished: false,
      photoPublished: false,
      sitePublicStatus: "非公開",
      date: "未定",
      location: "",
      bibNumberLabel: "ゼッケン番号",
      scheduledPublishDate: null,
      coverImage: null,
    });
    // 大会管理's order: oldest first.
    expect(all.findIndex((c) => c.id === hidden)).toBeLessThan(all.findIndex((c) => c.id === shown));
  });

  it("a wrong API token is 401, not the visitors' list", async () => {
    const answer = await apiCall(listRoute, "GET", "/api/video/contests", { token: "cvs_not-a-token" });
    expect(answer.status).toBe(401);
  });
});

describe("POST /api/video/contests", () => {
  it("creates a contest as 新規大会追加 does: the trimmed name, the defaults, whatever else is sent", async () => {
    const { token } = adminWithToken("write");
    const name = uniqueName("第1回 API大会");
    const answer = await apiCall(listRoute, "POST", "/api/video/contests", {
      token,
      json: {
        name: `  ${name}  `,
        date: "2025-06-01",
        location: "どこか",
        videoPublished: true,
        photoPublished: true,
        sitePublicStatus: "公開",
      },
    });
    expect(answer.status).toBe(201);
    const created = answer.data as ContestAnswer;
    expect(answer.location).toBe(`/api/video/contests/${created.id}`);
    expect(created).toMatchObject({
      name,
      date: "未定",
      location: "",
      videoPublished: false,
      photoPublished: false,
      sitePublicStatus: "非公開",
      bibNumberLabel: "ゼッケン番号",
    });
    expect(contestSettings(created.id).formats.map((f) => f.name)).toEqual(["縦", "横"]);
    expect(contestSettings(created.id).priceDescription.items).toHaveLength(2);
    // Not on the storefront until it is published.
    expect(listStorefrontContests().map((c) => c.id)).not.toContain(created.id);
  });

  it("refuses a name the dialog refuses, with the same messages", async () => {
    const { token } = adminWithToken("write");
    const post = (json: unknown) => apiCall(listRoute, "POST", "/api/video/contests", { token, json });
    expect(await post({ name: "   " })).toMatchObject({
      status: 422,
      data: {
        error: "入力エラー",
        message: "大会名を入力してください",
        fields: { name: ["大会名を入力してください"] },
      },
    });
    expect(await post({})).toMatchObject({
      status: 422,
      data: { fields: { name: ["大会名を入力してください"] } },
    });
    // A JSON number is not a name; the message is still the screen's Japanese.
    expect(await post({ name: 12 })).toMatchObject({
      status: 422,
      data: { message: "大会名を入力してください" },
    });
    expect((await post({ name: "x".repeat(201) })).status).toBe(422);

    const taken = uniqueName("同名大会");
    createContest(taken);
    const clash = await post({ name: taken });
    expect(clash.status).toBe(409);
    // The dialog's action answers the same refusal under the same field.
    const screen = await callRoute(
      (await import("~/routes/admin/contest-new")).action,
      formRequest("/admin/contests/new", [["name", taken]], await adminCookie()),
    );
    expect(screen.status).toBe(409);
    const screenError = (screen.data as { error: Record<string, string[]> }).error;
    expect(clash.data).toMatchObject({ message: screenError.name?.[0], fields: { name: screenError.name } });
  });

  it("answers malformed JSON 400 and a wrong method 405 with Allow", async () => {
    const { token } = adminWithToken("write");
    const malformed = await apiCall(listRoute, "POST", "/api/video/contests", {
      token,
      headers: { "Content-Type": "application/json" },
    });
    // An empty body is no name.
    expect(malformed.status).toBe(422);
    const request = new Request("http://shop.test/api/video/contests", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: "{name:",
    });
    expect((await callRoute(listRoute.action, request)).status).toBe(400);
    const put = await apiCall(listRoute, "PUT", "/api/video/contests", { token, json: {} });
    expect(put.status).toBe(405);
    expect(put.headers.get("Allow")).toBe("GET, POST, HEAD");
  });

  it("a name with markup is stored as typed and answered escaped, never as markup (HTML injection)", async () => {
    const { token } = adminWithToken("write");
    const name = `<script>alert(1)</script>${uniqueName()}`;
    const request = () =>
      new Request("http://shop.test/api/video/contests", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name }),
      });
    const created = await listRoute.action({ request: request(), params: {} });
    const text = await created.text();
    expect(created.headers.get("Content-Type")).toBe("application/json");
    expect(text).not.toContain("<script>");
    expect((JSON.parse(text) as ContestAnswer).name).toBe(name);
    // The refusal quotes the other contest's name: escaped too.
    const refused = await listRoute.action({ request: request(), params: {} });
    expect(refused.status).toBe(409);
    expect(await refused.text()).not.toContain("<script>");
  });

  it("an anonymous visitor cannot create a contest through the storefront's list address", async () => {
    const name = uniqueName("侵入");
    const before = db().select().from(contests).all().length;
    expect((await apiCall(listRoute, "POST", "/api/video/contests", { json: { name } })).status).toBe(401);
    const customer = await adminCookie({ isAdmin: false });
    expect(
      (await apiCall(listRoute, "POST", "/api/video/contests", { cookie: customer, json: { name } })).status,
    ).toBe(401);
    const { token } = adminWithToken("read");
    expect(await apiCall(listRoute, "POST", "/api/video/contests", { token, json: { name } })).toMatchObject({
      status: 403,
      data: { message: "このAPIトークンは読み取り専用です" },
    });
    expect(db().select().from(contests).all().length).toBe(before);
  });
});

describe("GET /api/video/contests/{id}", () => {
  it("answers one contest to an admin; an unknown id is 404; nobody else learns whether it exists", async () => {
    const id = createContest(uniqueName());
    const { token } = adminWithToken("read");
    expect(await item("GET", id, { token })).toMatchObject({
      status: 200,
      data: { id, sitePublicStatus: "非公開", createdAt: expect.any(String) as unknown },
    });
    expect(await item("GET", 99_999_999, { token })).toMatchObject({
      status: 404,
      data: { message: "大会が見つかりません (99999999)" },
    });
    expect((await item("GET", "abc", { token })).status).toBe(404);
    expect((await item("GET", "1e3", { token })).status).toBe(404);
    expect((await item("GET", id)).status).toBe(401);
    expect((await item("GET", 99_999_999)).status).toBe(401);
    expect((await item("GET", id, { cookie: await adminCookie({ isAdmin: false }) })).status).toBe(401);
    expect((await item("PUT", id, { token, json: {} })).status).toBe(405);
  });
});

describe("PATCH /api/video/contests/{id}", () => {
  it("the list's 動画 switch: videoPublished with sitePublicStatus, on the storefront at once", async () => {
    const { token } = adminWithToken("write");
    const id = createContest(uniqueName());
    // The storefront's list is kept in memory: read it once so the PATCH has to invalidate it.
    expect(listStorefrontContests().some((c) => c.id === id)).toBe(false);
    const answer = await item("PATCH", id, {
      token,
      json: { videoPublished: true, sitePublicStatus: "公開" },
    });
    expect(answer).toMatchObject({
      status: 200,
      data: { id, videoPublished: true, sitePublicStatus: "公開" },
    });
    expect(listStorefrontContests().find((c) => c.id === id)).toMatchObject({ onSale: true });
    // videoPublished alone is the switch: false is 非公開.
    expect(await item("PATCH", id, { token, json: { videoPublished: false } })).toMatchObject({
      data: { videoPublished: false, sitePublicStatus: "非公開" },
    });
    expect(listStorefrontContests().some((c) => c.id === id)).toBe(false);
  });

  it("the 写真 switch changes photoPublished only; a form-encoded body works too", async () => {
    const { token } = adminWithToken("write");
    const id = createContest(uniqueName());
    const request = new Request(`http://shop.test/api/video/contests/${id}`, {
      method: "PATCH",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: "photoPublished=true",
    });
    expect(await callRoute(itemRoute.action, request, { id: String(id) })).toMatchObject({
      status: 200,
      data: { photoPublished: true, videoPublished: false, sitePublicStatus: "非公開" },
    });
  });

  it("the settings tab's fields: name and label (one may be left out), 公開予約 read as ISO 8601", async () => {
    const { token } = adminWithToken("write");
    const id = createContest(uniqueName());
    const newName = uniqueName("改名後の大会");
    const at = new Date(Date.now() + 3 * 24 * 3600 * 1000);
    at.setUTCSeconds(0, 0);
    const answer = await item("PATCH", id, {
      token,
      json: {
        name: newName,
        bibNumberLabel: "エントリー番号",
        sitePublicStatus: "公開予約",
        videoPublished: false,
        scheduledPublishDate: at.toISOString(),
      },
    });
    expect(answer).toMatchObject({
      status: 200,
      data: {
        name: newName,
        bibNumberLabel: "エントリー番号",
        sitePublicStatus: "公開予約",
        videoPublished: false,
        scheduledPublishDate: at.toISOString(),
      },
    });
    // Listed on the storefront with the time its sales start.
    expect(listStorefrontContests().find((c) => c.id === id)).toMatchObject({
      onSale: false,
      salesStartAt: at,
    });
    expect(await item("PATCH", id, { token, json: { bibNumberLabel: "番号" } })).toMatchObject({
      data: { name: newName, bibNumberLabel: "番号", sitePublicStatus: "公開予約" },
    });
    // The screen's datetime-local text (Tokyo time) is read too.
    expect(
      await item("PATCH", id, {
        token,
        json: { sitePublicStatus: "公開予約", scheduledPublishDate: toTokyoDateTimeInput(at) },
      }),
    ).toMatchObject({ status: 200, data: { scheduledPublishDate: at.toISOString() } });
  });

  it("a 公開予約 whose time has passed stays when the screen's client sends it back with a rename", async () => {
    const { token } = adminWithToken("write");
    const id = createContest(uniqueName());
    const at = new Date(Date.now() + 3600 * 1000);
    at.setUTCSeconds(0, 0);
    await item("PATCH", id, {
      token,
      json: { sitePublicStatus: "公開予約", scheduledPublishDate: at.toISOString() },
    });
    setClock(() => at.getTime() + 60_000);
    const renamed = uniqueName("予約済み");
    expect(
      await item("PATCH", id, {
        token,
        json: {
          name: renamed,
          bibNumberLabel: "ゼッケン番号",
          sitePublicStatus: "公開予約",
          videoPublished: false,
          scheduledPublishDate: at.toISOString(),
        },
      }),
    ).toMatchObject({ status: 200, data: { name: renamed, scheduledPublishDate: at.toISOString() } });
    // A new past time is refused as on the screen.
    expect(
      await item("PATCH", id, {
        token,
        json: {
          sitePublicStatus: "公開予約",
          scheduledPublishDate: new Date(at.getTime() - 3600_000).toISOString(),
        },
      }),
    ).toMatchObject({
      status: 422,
      data: { fields: { scheduledPublishDate: ["公開予約の日時には未来の日時を指定してください"] } },
    });
  });

  it("an empty body is a refresh: the contest unchanged", async () => {
    const { token } = adminWithToken("write");
    const id = createContest(uniqueName());
    const before = contestRow(id);
    const answer = await item("PATCH", id, { token });
    expect(answer).toMatchObject({ status: 200, data: { id, name: before?.name } });
    expect(contestRow(id)).toEqual(before);
    expect((await item("PATCH", id, { token, json: {} })).status).toBe(200);
    expect(contestRow(id)).toEqual(before);
  });

  it("refuses what the settings tab refuses, with its messages, and writes nothing then", async () => {
    const { token } = adminWithToken("write");
    const id = createContest(uniqueName());
    const before = contestRow(id);
    const patch = (json: unknown) => item("PATCH", id, { token, json });
    expect(await patch({ name: " ", sitePublicStatus: "公開" })).toMatchObject({
      status: 422,
      data: { fields: { name: ["大会名を入力してください"] } },
    });
    expect(await patch({ bibNumberLabel: "" })).toMatchObject({
      status: 422,
      data: { fields: { bibNumberLabel: ["番号欄の名前を入力してください"] } },
    });
    expect(await patch({ sitePublicStatus: "公開中" })).toMatchObject({
      status: 422,
      data: { fields: { sitePublicStatus: ["公開設定を選択してください"] } },
    });
    expect(await patch({ sitePublicStatus: "公開予約" })).toMatchObject({
      status: 422,
      data: { fields: { scheduledPublishDate: ["公開予約の日時を入力してください"] } },
    });
    expect(
      await patch({ sitePublicStatus: "公開予約", scheduledPublishDate: "2026-02-30T10:00:00Z" }),
    ).toMatchObject({
      status: 422,
      data: { fields: { scheduledPublishDate: ["日時を正しく入力してください"] } },
    });
    expect(await patch({ sitePublicStatus: "公開予約", scheduledPublishDate: 12 })).toMatchObject({
      status: 422,
    });
    expect(await patch({ videoPublished: "yes" })).toMatchObject({
      status: 422,
      data: { fields: { videoPublished: ["videoPublished は true か false で指定してください"] } },
    });
    expect(await patch({ photoPublished: 1 })).toMatchObject({ status: 422 });
    // 公開 is what sells: videoPublished cannot say otherwise.
    expect(await patch({ videoPublished: true, sitePublicStatus: "非公開" })).toMatchObject({
      status: 422,
      data: { fields: { videoPublished: [expect.stringContaining("公開") as unknown] } },
    });
    expect((await patch([1])).status).toBe(400);
    expect(contestRow(id)).toEqual(before);
  });

  it("a name whose URL is another contest's is refused as on the screen, and nothing else changes", async () => {
    const { token } = adminWithToken("write");
    const id = createContest(uniqueName());
    const other = uniqueName("先にある大会");
    createContest(other);
    const answer = await item("PATCH", id, { token, json: { name: other, photoPublished: true } });
    expect(answer.status).toBe(409);
    const screen = await callRoute(
      (await import("~/routes/admin/contest/settings")).action,
      formRequest(
        `/admin/contest/${id}/settings`,
        [
          ["intent", "basic"],
          ["name", other],
          ["bibNumberLabel", "ゼッケン番号"],
        ],
        await adminCookie(),
      ),
      { id: String(id) },
    );
    const screenMessage = (screen.data as { reply: { error: Record<string, string[]> } }).reply.error.name;
    expect(answer.data).toMatchObject({ fields: { name: screenMessage } });
    expect(contestRow(id)?.photoPublished).toBe(false);
  });

  it("a read-only token cannot change a contest; anyone else is 401; an unknown contest 404", async () => {
    const id = createContest(uniqueName());
    const { token } = adminWithToken("read");
    expect((await item("PATCH", id, { token, json: { photoPublished: true } })).status).toBe(403);
    expect((await item("PATCH", id, { json: { photoPublished: true } })).status).toBe(401);
    const { token: writer } = adminWithToken("write");
    expect((await item("PATCH", 99_999_999, { token: writer, json: {} })).status).toBe(404);
    expect(contestRow(id)?.photoPublished).toBe(false);
  });
});

describe("DELETE /api/video/contests/{id}", () => {
  it("deletes the contest with its athletes as 削除 does; its orders stay; then 404", async () => {
    const { token } = adminWithToken("write");
    const name = uniqueName("消す大会");
    const id = createContest(name);
    db().insert(athletes).values({ contestId: id, athleteNumber: 1, name: "選手" }).run();
    const order = db()
      .insert(orders)
      .values({
        orderNumber: `7${String(Date.now() % 10_000_000).padStart(7, "0")}`,
        checkoutId: `contest-delete-${id}`,
        paymentIntentId: `pi-contest-delete-${id}`,
        contestId: id,
        contestName: name,
        customerEmail: "keep@example.jp",
        customerName: "注文 花子",
        totalAmount: 3000,
      })
      .returning()
      .get();
    expect((await item("DELETE", id, { token: adminWithToken("read").token })).status).toBe(403);
    expect((await item("DELETE", id)).status).toBe(401);
    expect(await item("DELETE", id, { token })).toMatchObject({
      status: 200,
      data: { deleted: id, name, message: "大会が削除されました。" },
    });
    expect(contestRow(id)).toBeUndefined();
    expect(db().select().from(athletes).where(eq(athletes.contestId, id)).all()).toEqual([]);
    expect(db().select().from(orders).where(eq(orders.id, order.id)).get()).toMatchObject({
      contestId: null,
      contestName: name,
    });
    expect(await item("DELETE", id, { token })).toMatchObject({
      status: 404,
      data: { message: `大会が見つかりません (${id})` },
    });
  });
});
