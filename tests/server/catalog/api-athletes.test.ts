import { createRequire } from "node:module";
import type { RouteConfigEntry } from "@remix-run/route-config";
import type { AgnosticRouteObject } from "@remix-run/router";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import routeConfig from "~/routes";
import * as contestAthletesRoute from "~/routes/api/athletes/contest-athletes";
import * as itemRoute from "~/routes/api/athletes/item";
import * as bulkUpdateRoute from "~/routes/api/athletes/bulk-update";
import * as bulkPurgeRoute from "~/routes/api/athletes/bulk-permanent-delete";
import { applySingle } from "~/server/catalog/athlete-bulk.server";
import { addAthletes } from "~/server/catalog/athlete-edits.server";
import { athleteNumberTakenMessage } from "~/server/catalog/athlete-numbers.server";
import { createContest } from "~/server/catalog/contests.server";
import { orderFormOptions } from "~/server/catalog/pricing.server";
import { db } from "~/server/db/client.server";
import { athletes, categories, orderLines, orders } from "~/server/db/schema";
import { adminWithToken, apiCall } from "../../helpers/api";
import { callRoute } from "../../helpers/route";
import { adminCookie, formRequest } from "../../helpers/shop";

type Athlete = {
  id: number;
  contestId: number;
  athleteNumber: number;
  name: string;
  category: string;
  videoStatus: string;
  photoStatus: string;
  verticalVideoPrice: number | null;
  horizontalVideoPrice: number | null;
  isDeleted: boolean;
};
type Failure = { error: string; message: string; fields?: Record<string, string[]> };

const write = adminWithToken("write").token;
const read = adminWithToken("read").token;

function contestWith(howMany: number) {
  const contestId = createContest(`API選手テスト大会${Math.random().toString(36).slice(2, 8)}`);
  if (howMany > 0) addAthletes(contestId, howMany);
  return { contestId, rows: rowsOf(contestId) };
}

function rowsOf(contestId: number) {
  return db()
    .select()
    .from(athletes)
    .where(eq(athletes.contestId, contestId))
    .orderBy(asc(athletes.athleteNumber), asc(athletes.id))
    .all();
}

const rowOf = (id: number) => db().select().from(athletes).where(eq(athletes.id, id)).get();

const list = (contestId: number | string, query = "", token: string | null = read) =>
  apiCall(contestAthletesRoute, "GET", `/api/video/contests/${contestId}/athletes${query}`, {
    token: token ?? undefined,
    params: { id: String(contestId) },
  });
const create = (contestId: number | string, json: unknown, token: string | null = write) =>
  apiCall(contestAthletesRoute, "POST", `/api/video/contests/${contestId}/athletes`, {
    token: token ?? undefined,
    json,
    params: { id: String(contestId) },
  });
const patch = (id: number | string, json: unknown, token: string | null = write) =>
  apiCall(itemRoute, "PATCH", `/api/video/athletes/${id}`, {
    token: token ?? undefined,
    json,
    params: { id: String(id) },
  });
const remove = (id: number | string, token: string | null = write) =>
  apiCall(itemRoute, "DELETE", `/api/video/athletes/${id}`, {
    token: token ?? undefined,
    params: { id: String(id) },
  });
const bulkUpdate = (json: unknown, token: string | null = write) =>
  apiCall(bulkUpdateRoute, "PATCH", "/api/video/athletes/bulk-update", { token: token ?? undefined, json });
const bulkPurge = (json: unknown, token: string | null = write) =>
  apiCall(bulkPurgeRoute, "POST", "/api/video/athletes/bulk-permanent-delete", {
    token: token ?? undefined,
    json,
  });

/** A request whose body is sent as written (not JSON.stringify'd), for malformed and oversized bodies. */
function raw(route: { action: unknown }, method: string, path: string, body: string, params = {}) {
  const request = new Request(`http://shop.test${path}`, {
    method,
    body,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${write}` },
  });
  return callRoute(route.action as Parameters<typeof callRoute>[0], request, params);
}

/** The contest editor's own action, as the screen posts to it. */
async function screenPost(contestId: number, fields: [string, string][]) {
  const { action } = await import("~/routes/admin/contest/athletes");
  return callRoute(
    action,
    formRequest(`/admin/contest/${contestId}?index`, [...fields, ["reply", "fetcher"]], await adminCookie()),
    { id: String(contestId) },
  );
}

describe("GET /api/video/contests/{id}/athletes", () => {
  it("lists the active athletes in number order with the spec's fields; includeDeleted=true adds the deleted", async () => {
    const { contestId, rows } = contestWith(3);
    applySingle(contestId, "delete", rows[1]!.id);
    const active = await list(contestId);
    expect(active.status).toBe(200);
    expect(active.data).toEqual([
      {
        id: rows[0]!.id,
        contestId,
        athleteNumber: 1,
        name: "選手1",
        category: "未分類",
        videoStatus: "未撮影",
        photoStatus: "未撮影",
        verticalVideoPrice: 5000,
        horizontalVideoPrice: 5000,
        isDeleted: false,
      },
      expect.objectContaining({ id: rows[2]!.id, athleteNumber: 3 }),
    ]);
    const all = (await list(contestId, "?includeDeleted=true")).data as Athlete[];
    expect(all.map((a) => [a.athleteNumber, a.isDeleted])).toEqual([
      [1, false],
      [2, true],
      [3, false],
    ]);
    expect(((await list(contestId, "?includeDeleted=false")).data as Athlete[]).length).toBe(2);
    expect(await list(contestWith(0).contestId)).toMatchObject({ status: 200, data: [] });
  });

  it("answers 404 for an unknown contest, 401 to anyone but an admin, 405 to another method", async () => {
    const { contestId } = contestWith(1);
    for (const id of ["99999999", "abc", "0", "1e3"])
      expect(await list(id)).toMatchObject({ status: 404, data: { message: "大会が見つかりません" } });
    expect((await list(contestId, "", null)).status).toBe(401);
    const customer = await adminCookie({ isAdmin: false });
    expect(
      (
        await apiCall(contestAthletesRoute, "GET", `/api/video/contests/${contestId}/athletes`, {
          cookie: customer,
          params: { id: String(contestId) },
        })
      ).status,
    ).toBe(401);
    const put = await apiCall(contestAthletesRoute, "PUT", `/api/video/contests/${contestId}/athletes`, {
      token: write,
      json: {},
      params: { id: String(contestId) },
    });
    expect(put.status).toBe(405);
    expect(put.headers.get("Allow")).toBe("GET, POST, HEAD");
  });
});

describe("POST /api/video/contests/{id}/athletes", () => {
  it("adds one athlete with 選手追加's defaults when no field is sent: the next number (deleted ones included), 選手{n}, 5000 yen, 未撮影", async () => {
    const { contestId, rows } = contestWith(2);
    applySingle(contestId, "delete", rows[1]!.id);
    const added = await create(contestId, {});
    expect(added).toMatchObject({
      status: 201,
      data: {
        contestId,
        athleteNumber: 3,
        name: "選手3",
        category: "未分類",
        videoStatus: "未撮影",
        photoStatus: "未撮影",
        verticalVideoPrice: 5000,
        horizontalVideoPrice: 5000,
        isDeleted: false,
      },
    });
    expect(rowOf((added.data as Athlete).id)).toMatchObject({ contestId, athleteNumber: 3 });
  });

  it("adds an athlete with its fields: number, name, category, prices per format, sales statuses", async () => {
    const { contestId } = contestWith(0);
    db().insert(categories).values({ contestId, name: "キッズ部門", color: "#3b82f6" }).run();
    const added = await create(contestId, {
      athleteNumber: 12,
      name: "  山田 花子 ",
      category: "キッズ部門",
      verticalVideoPrice: 4500,
      horizontalVideoPrice: 0,
      videoStatus: "販売中",
      photoStatus: "受注停止",
    });
    expect(added).toMatchObject({
      status: 201,
      data: {
        athleteNumber: 12,
        name: "山田 花子",
        category: "キッズ部門",
        verticalVideoPrice: 4500,
        horizontalVideoPrice: 0,
        videoStatus: "販売中",
        photoStatus: "受注停止",
      },
    });
    // On sale at once: the order form (kept in the catalogue cache) offers it.
    expect(orderFormOptions(contestId).athletes.map((a) => a.id)).toEqual([(added.data as Athlete).id]);
    // 未分類 is the empty category, as in the row edit.
    expect((await create(contestId, { category: "未分類" })).data).toMatchObject({ category: "未分類" });
  });

  it("a number an active athlete of the contest has is refused with the row edit's message under the field", async () => {
    const { contestId, rows } = contestWith(2);
    const refused = await create(contestId, { athleteNumber: 2, name: "重複" });
    const message = athleteNumberTakenMessage(2, rows[1]!.name);
    expect(refused).toMatchObject({
      status: 422,
      data: { error: "入力エラー", message, fields: { athleteNumber: [message] } },
    });
    expect(rowsOf(contestId)).toHaveLength(2);
    // The screen says the same under the same field.
    const screen = await screenPost(contestId, [
      ["intent", "update"],
      ["id", String(rows[0]!.id)],
      ["athleteNumber", "2"],
      ["name", rows[0]!.name],
      ["verticalVideoPrice", "5000"],
      ["horizontalVideoPrice", "5000"],
      ["videoStatus", "未撮影"],
      ["photoStatus", "未撮影"],
    ]);
    expect(screen.data).toMatchObject({ ok: false, message, reply: { error: { athleteNumber: [message] } } });
    // A deleted athlete's number is free; another contest's numbers are its own.
    applySingle(contestId, "delete", rows[1]!.id);
    expect((await create(contestId, { athleteNumber: 2 })).status).toBe(201);
    expect((await create(contestWith(0).contestId, { athleteNumber: 1 })).status).toBe(201);
  });

  it("refuses bad fields with the row edit's Japanese messages (422), and adds nothing", async () => {
    const { contestId } = contestWith(0);
    const cases: [unknown, string, string][] = [
      [{ athleteNumber: -1 }, "athleteNumber", "番号は0以上の整数で入力してください"],
      [{ athleteNumber: 1.5 }, "athleteNumber", "番号は0以上の整数で入力してください"],
      [{ athleteNumber: "12" }, "athleteNumber", "番号は0以上の整数で入力してください"],
      [{ athleteNumber: 1e20 }, "athleteNumber", "番号は999999以下で入力してください"],
      [{ name: "   " }, "name", "選手名を入力してください"],
      [{ name: 42 }, "name", "選手名を入力してください"],
      [{ name: "あ".repeat(101) }, "name", "選手名は100文字以内で入力してください"],
      [{ category: "ない部門" }, "category", "部門を選択してください"],
      [{ category: ["a"] }, "category", "部門を選択してください"],
      [{ verticalVideoPrice: -100 }, "verticalVideoPrice", "価格は0以上の整数で入力してください"],
      [
        { horizontalVideoPrice: 2_000_000 },
        "horizontalVideoPrice",
        "価格は1,000,000円以下で入力してください",
      ],
      [{ videoStatus: "売り切れ" }, "videoStatus", "ステータスを選択してください"],
      // A legacy status cannot be chosen; a new athlete holds only 未撮影, as 選手追加 gives it.
      [{ photoStatus: "撮影完了" }, "photoStatus", "ステータスを選択してください"],
    ];
    for (const [json, field, message] of cases) {
      const answer = await create(contestId, json);
      expect(answer, JSON.stringify(json)).toMatchObject({
        status: 422,
        data: { fields: { [field]: [message] } },
      });
    }
    expect(rowsOf(contestId)).toHaveLength(0);
    expect((await create(contestId, { photoStatus: "未撮影" })).status).toBe(201);
  });

  it("answers malformed JSON 400, an oversized body 413, an unknown contest 404, a read-only token 403, no token 401", async () => {
    const { contestId } = contestWith(0);
    const path = `/api/video/contests/${contestId}/athletes`;
    const params = { id: String(contestId) };
    expect((await raw(contestAthletesRoute, "POST", path, "{not json", params)).status).toBe(400);
    expect((await raw(contestAthletesRoute, "POST", path, "[1]", params)).status).toBe(400);
    expect(
      (await raw(contestAthletesRoute, "POST", path, JSON.stringify({ name: "x".repeat(70_000) }), params))
        .status,
    ).toBe(413);
    expect((await create(99999999, {})).status).toBe(404);
    expect(await create(contestId, {}, read)).toMatchObject({
      status: 403,
      data: { message: "このAPIトークンは読み取り専用です" },
    });
    expect((await create(contestId, {}, null)).status).toBe(401);
    expect(rowsOf(contestId)).toHaveLength(0);
  });
});

describe("PATCH /api/video/athletes/{id}", () => {
  it("changes the fields sent, keeps the rest, and answers the athlete", async () => {
    const { contestId, rows } = contestWith(2);
    const answer = await patch(rows[0]!.id, {
      name: "佐藤 太郎",
      verticalVideoPrice: 3000,
      videoStatus: "販売中",
    });
    expect(answer).toMatchObject({
      status: 200,
      data: {
        id: rows[0]!.id,
        contestId,
        athleteNumber: 1,
        name: "佐藤 太郎",
        verticalVideoPrice: 3000,
        horizontalVideoPrice: 5000,
        videoStatus: "販売中",
        // A legacy status the row holds is kept when not sent, as saving the row unchanged keeps it.
        photoStatus: "未撮影",
      },
    });
    expect(rowOf(rows[0]!.id)).toMatchObject({ name: "佐藤 太郎", verticalVideoPrice: 3000 });
  });

  it("refuses another active athlete's number with the row edit's message (422 under athleteNumber)", async () => {
    const { rows } = contestWith(2);
    const message = athleteNumberTakenMessage(2, rows[1]!.name);
    expect(await patch(rows[0]!.id, { athleteNumber: 2 })).toMatchObject({
      status: 422,
      data: { message, fields: { athleteNumber: [message] } },
    });
    expect(rowOf(rows[0]!.id)?.athleteNumber).toBe(1);
    expect((await patch(rows[0]!.id, { athleteNumber: 1 })).status).toBe(200);
  });

  it("mass assignment: an id, a contestId or unknown fields in the body cannot move or change another athlete", async () => {
    const { rows } = contestWith(2);
    const other = contestWith(1);
    const answer = await patch(rows[0]!.id, {
      id: other.rows[0]!.id,
      contestId: other.contestId,
      createdAt: 0,
      name: "移動しない",
    });
    expect(answer).toMatchObject({ status: 200, data: { id: rows[0]!.id, contestId: rows[0]!.contestId } });
    expect(rowOf(other.rows[0]!.id)?.name).toBe("選手1");
    expect(rowOf(rows[0]!.id)).toMatchObject({ contestId: rows[0]!.contestId, name: "移動しない" });
  });

  it("deletes and restores with isDeleted alone, as the row's buttons do; a restore onto a number in use is 409", async () => {
    const { rows } = contestWith(2);
    expect(await patch(rows[0]!.id, { isDeleted: true })).toMatchObject({
      status: 200,
      data: { isDeleted: true },
    });
    // A deleted athlete is not edited (restore it first), as on the screen.
    expect(await patch(rows[0]!.id, { name: "x" })).toMatchObject({
      status: 404,
      data: { message: "選手が見つかりません。削除されたか、この大会の選手ではありません。" },
    });
    expect((await patch(rows[1]!.id, { athleteNumber: 1 })).status).toBe(200);
    const clash = await patch(rows[0]!.id, { isDeleted: false });
    expect(clash).toMatchObject({
      status: 409,
      data: { message: expect.stringContaining("復元できません") },
    });
    expect((await patch(rows[1]!.id, { athleteNumber: 2 })).status).toBe(200);
    expect(await patch(rows[0]!.id, { isDeleted: false })).toMatchObject({
      status: 200,
      data: { isDeleted: false },
    });
    expect(await patch(rows[0]!.id, { isDeleted: "no" })).toMatchObject({
      status: 422,
      data: { fields: { isDeleted: ["isDeleted は true か false で指定してください"] } },
    });
    expect(await patch(rows[0]!.id, { isDeleted: true, name: "x" })).toMatchObject({
      status: 422,
      data: { fields: { isDeleted: [expect.stringContaining("別に送ってください")] } },
    });
    expect(rowOf(rows[0]!.id)).toMatchObject({ isDeleted: false, name: "選手1" });
  });

  it("answers 422 for a bad field, 404 for an unknown athlete, 400 for malformed JSON, 403/401/405 as every call", async () => {
    const { rows } = contestWith(1);
    const id = rows[0]!.id;
    expect(await patch(id, { name: "", verticalVideoPrice: "高い" })).toMatchObject({
      status: 422,
      data: {
        fields: {
          name: ["選手名を入力してください"],
          verticalVideoPrice: ["価格は0以上の整数で入力してください"],
        },
      },
    });
    for (const unknown of ["99999999", "abc", "-1"]) expect((await patch(unknown, {})).status).toBe(404);
    expect((await raw(itemRoute, "PATCH", `/api/video/athletes/${id}`, "{", { id: String(id) })).status).toBe(
      400,
    );
    expect((await patch(id, { name: "x" }, read)).status).toBe(403);
    expect((await patch(id, { name: "x" }, null)).status).toBe(401);
    const get = await apiCall(itemRoute, "GET", `/api/video/athletes/${id}`, {
      token: read,
      params: { id: String(id) },
    });
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toBe("PATCH, DELETE");
    expect(rowOf(id)?.name).toBe("選手1");
  });
});

describe("DELETE /api/video/athletes/{id}", () => {
  it("soft-deletes as the row's 削除 does (restorable, off the order form); again, or unknown, is 404", async () => {
    const { contestId, rows } = contestWith(2);
    await bulkUpdate({ athleteIds: rows.map((r) => r.id), updates: { videoStatus: "販売中" } });
    expect(orderFormOptions(contestId).athletes).toHaveLength(2);
    expect(await remove(rows[0]!.id)).toMatchObject({
      status: 200,
      data: { id: rows[0]!.id, isDeleted: true },
    });
    expect(rowOf(rows[0]!.id)?.isDeleted).toBe(true);
    expect(orderFormOptions(contestId).athletes.map((a) => a.id)).toEqual([rows[1]!.id]);
    expect(await remove(rows[0]!.id)).toMatchObject({
      status: 404,
      data: { message: expect.stringContaining("既に削除された選手") },
    });
    expect((await remove(99999999)).status).toBe(404);
    expect((await remove(rows[1]!.id, read)).status).toBe(403);
    expect((await remove(rows[1]!.id, null)).status).toBe(401);
    expect(rowOf(rows[1]!.id)?.isDeleted).toBe(false);
  });
});

describe("PATCH /api/video/athletes/bulk-update", () => {
  it("sets the prices and statuses given on the selected athletes only, and counts them", async () => {
    const { contestId, rows } = contestWith(3);
    const ids = [rows[0]!.id, rows[2]!.id];
    const answer = await bulkUpdate({
      athleteIds: ids,
      updates: { verticalVideoPrice: 3000, videoStatus: "販売中", photoStatus: "受注停止" },
    });
    expect(answer).toMatchObject({
      status: 200,
      data: { updatedCount: 2, successCount: 2, message: "2人の価格・ステータスを更新しました。" },
    });
    expect(
      rowsOf(contestId).map((r) => [r.verticalVideoPrice, r.horizontalVideoPrice, r.videoStatus]),
    ).toEqual([
      [3000, 5000, "販売中"],
      [5000, 5000, "未撮影"],
      [3000, 5000, "販売中"],
    ]);
    expect(orderFormOptions(contestId).athletes.map((a) => a.id)).toEqual(ids);
  });

  it("deletes (isDeleted: true) and restores (false) in bulk; a restore that would pair two numbers is refused as on the screen", async () => {
    const { contestId, rows } = contestWith(3);
    const ids = [rows[0]!.id, rows[1]!.id];
    expect(await bulkUpdate({ athleteIds: ids, updates: { isDeleted: true } })).toMatchObject({
      status: 200,
      data: { updatedCount: 2, message: "2人を削除しました（削除済みから復元できます）。" },
    });
    await patch(rows[2]!.id, { athleteNumber: 1 });
    const refused = await bulkUpdate({ athleteIds: ids, updates: { isDeleted: false } });
    const screen = await screenPost(contestId, [
      ["intent", "bulk-restore"],
      ...ids.map((id): [string, string] => ["ids", String(id)]),
    ]);
    expect(refused.status).toBe(409);
    expect((refused.data as Failure).message).toBe((screen.data as { message: string }).message);
    expect((refused.data as Failure).message).toContain(`番号1「選手1」は選手「選手3」が使っています`);
    expect(rowsOf(contestId).filter((r) => r.isDeleted)).toHaveLength(2);
    await patch(rows[2]!.id, { athleteNumber: 3 });
    expect(await bulkUpdate({ athleteIds: ids, updates: { isDeleted: false } })).toMatchObject({
      status: 200,
      data: { updatedCount: 2, message: "2人を復元しました。" },
    });
  });

  it("is all or nothing: an id of another contest, an unknown one or one in the wrong view changes nothing (404)", async () => {
    const { contestId, rows } = contestWith(2);
    const other = contestWith(1);
    for (const athleteIds of [
      [rows[0]!.id, other.rows[0]!.id],
      [rows[0]!.id, 99999999],
      [99999999, rows[0]!.id],
    ]) {
      const answer = await bulkUpdate({ athleteIds, updates: { videoStatus: "販売中" } });
      expect(answer.status, JSON.stringify(athleteIds)).toBe(404);
    }
    applySingle(contestId, "delete", rows[1]!.id);
    expect(
      (await bulkUpdate({ athleteIds: [rows[0]!.id, rows[1]!.id], updates: { verticalVideoPrice: 1 } }))
        .status,
    ).toBe(404);
    expect((await bulkUpdate({ athleteIds: [99999999], updates: { videoStatus: "販売中" } })).status).toBe(
      404,
    );
    // A huge id is an id of nobody, not a server error.
    expect((await bulkUpdate({ athleteIds: [1e300], updates: { videoStatus: "販売中" } })).status).toBe(404);
    expect(await bulkPurge({ athleteIds: [1e300, 2 ** 53 + 1] })).toMatchObject({
      status: 200,
      data: { successCount: 0, failedCount: 2 },
    });
    expect(rowsOf(contestId).map((r) => r.videoStatus)).toEqual(["未撮影", "未撮影"]);
    expect(rowOf(other.rows[0]!.id)?.videoStatus).toBe("未撮影");
  });

  it("refuses bad input with the bulk bar's messages under the API's field names (422)", async () => {
    const { rows } = contestWith(1);
    const id = rows[0]!.id;
    const cases: [unknown, string, string][] = [
      [{ updates: { videoStatus: "販売中" } }, "athleteIds", "選手を選択してください"],
      [{ athleteIds: [], updates: { videoStatus: "販売中" } }, "athleteIds", "選手を選択してください"],
      [{ athleteIds: "1,2", updates: { videoStatus: "販売中" } }, "athleteIds", "選手を選択してください"],
      [{ athleteIds: [0], updates: { videoStatus: "販売中" } }, "athleteIds", "選手が見つかりません"],
      [{ athleteIds: ["x"], updates: { videoStatus: "販売中" } }, "athleteIds", "選手が見つかりません"],
      [
        { athleteIds: Array.from({ length: 2001 }, (_, i) => i + 1), updates: { videoStatus: "販売中" } },
        "athleteIds",
        "一度に操作できるのは2000人までです",
      ],
      [{ athleteIds: [id] }, "updates", "変更する価格またはステータスを入力してください"],
      [{ athleteIds: [id], updates: {} }, "updates", "変更する価格またはステータスを入力してください"],
      [
        { athleteIds: [id], updates: [1] },
        "updates",
        "updates は項目と値の組（オブジェクト）で送ってください",
      ],
      [
        { athleteIds: [id], updates: { verticalVideoPrice: 1.5 } },
        "updates.verticalVideoPrice",
        "価格は0以上の整数で入力してください",
      ],
      // Legacy statuses are not offered by the bar, in bulk or not.
      [
        { athleteIds: [id], updates: { videoStatus: "撮影完了" } },
        "updates.videoStatus",
        "ステータスを選択してください",
      ],
      [
        { athleteIds: [id], updates: { athleteNumber: 7 } },
        "updates.athleteNumber",
        "一括で変更できるのは価格・ステータス・削除（isDeleted）だけです",
      ],
      [
        { athleteIds: [id], updates: { isDeleted: false, videoStatus: "販売中" } },
        "updates.isDeleted",
        "削除・復元（isDeleted）は、価格・ステータスの変更とは別に送ってください",
      ],
      [
        { athleteIds: [id], updates: { isDeleted: 1 } },
        "updates.isDeleted",
        "isDeleted は true か false で指定してください",
      ],
    ];
    for (const [json, field, message] of cases) {
      const answer = await bulkUpdate(json);
      expect(answer.status, JSON.stringify(json).slice(0, 80)).toBe(422);
      expect((answer.data as Failure).fields?.[field], JSON.stringify(json).slice(0, 80)).toEqual([message]);
    }
    expect(rowOf(id)).toMatchObject({ videoStatus: "未撮影", isDeleted: false, athleteNumber: 1 });
  });

  it("answers malformed JSON 400, a read-only token 403, no token 401, another method 405", async () => {
    const { rows } = contestWith(1);
    const json = { athleteIds: [rows[0]!.id], updates: { videoStatus: "販売中" } };
    expect((await raw(bulkUpdateRoute, "PATCH", "/api/video/athletes/bulk-update", "nope")).status).toBe(400);
    expect((await bulkUpdate(json, read)).status).toBe(403);
    expect((await bulkUpdate(json, null)).status).toBe(401);
    const post = await apiCall(bulkUpdateRoute, "POST", "/api/video/athletes/bulk-update", {
      token: write,
      json,
    });
    expect(post.status).toBe(405);
    expect(post.headers.get("Allow")).toBe("PATCH");
    expect(rowOf(rows[0]!.id)?.videoStatus).toBe("未撮影");
  });
});

describe("POST /api/video/athletes/bulk-permanent-delete", () => {
  it("purges the deleted athletes and counts what the screen's purge refuses (active, unknown) as failed", async () => {
    const { contestId, rows } = contestWith(3);
    const other = contestWith(1);
    applySingle(contestId, "delete", rows[0]!.id);
    applySingle(contestId, "delete", rows[1]!.id);
    applySingle(other.contestId, "delete", other.rows[0]!.id);
    const answer = await bulkPurge({
      athleteIds: [rows[0]!.id, rows[1]!.id, rows[1]!.id, rows[2]!.id, other.rows[0]!.id, 99999999],
    });
    expect(answer).toMatchObject({ status: 200, data: { successCount: 3, failedCount: 2 } });
    expect(rowsOf(contestId).map((r) => r.id)).toEqual([rows[2]!.id]);
    expect(rowsOf(other.contestId)).toHaveLength(0);
    expect(await bulkPurge({ athleteIds: [rows[2]!.id] })).toMatchObject({
      status: 200,
      data: { successCount: 0, failedCount: 1 },
    });
    expect(rowOf(rows[2]!.id)).toBeDefined();
  });

  it("purges an athlete with orders, as the screen does: the order lines keep their copy of number and name", async () => {
    const { contestId, rows } = contestWith(1);
    const athlete = rows[0]!;
    const orderNumber = `7${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
    const order = db()
      .insert(orders)
      .values({
        orderNumber,
        checkoutId: `ath-${orderNumber}`,
        paymentIntentId: `pi-ath-${orderNumber}`,
        contestId,
        contestName: "大会",
        customerEmail: "parent@example.jp",
        customerName: "例 花子",
        totalAmount: 5000,
      })
      .returning()
      .get();
    const line = db()
      .insert(orderLines)
      .values({
        orderId: order.id,
        lineNumber: `${orderNumber}-1`,
        contestName: "大会",
        category: "",
        athleteId: athlete.id,
        athleteNumber: athlete.athleteNumber,
        athleteName: athlete.name,
        style: "縦",
        orientation: "vertical",
        price: 5000,
      })
      .returning()
      .get();
    applySingle(contestId, "delete", athlete.id);
    expect(await bulkPurge({ athleteIds: [athlete.id] })).toMatchObject({
      status: 200,
      data: { successCount: 1, failedCount: 0 },
    });
    expect(db().select().from(orderLines).where(eq(orderLines.id, line.id)).get()).toMatchObject({
      athleteId: null,
      athleteNumber: athlete.athleteNumber,
      athleteName: athlete.name,
    });
  });

  it("refuses a bad selection (422 under athleteIds), malformed JSON (400), read-only 403, no token 401, GET 405", async () => {
    const { contestId, rows } = contestWith(1);
    applySingle(contestId, "delete", rows[0]!.id);
    for (const json of [{}, { athleteIds: [] }, { athleteIds: [-1] }, { athleteIds: { 0: 1 } }])
      expect(await bulkPurge(json), JSON.stringify(json)).toMatchObject({
        status: 422,
        data: { fields: { athleteIds: [expect.any(String)] } },
      });
    expect(
      (await bulkPurge({ athleteIds: Array.from({ length: 2001 }, (_, i) => i + 1) })).data,
    ).toMatchObject({ fields: { athleteIds: ["一度に操作できるのは2000人までです"] } });
    expect(
      (await raw(bulkPurgeRoute, "POST", "/api/video/athletes/bulk-permanent-delete", "{]")).status,
    ).toBe(400);
    expect((await bulkPurge({ athleteIds: [rows[0]!.id] }, read)).status).toBe(403);
    expect((await bulkPurge({ athleteIds: [rows[0]!.id] }, null)).status).toBe(401);
    expect(
      (await apiCall(bulkPurgeRoute, "GET", "/api/video/athletes/bulk-permanent-delete", { token: read }))
        .status,
    ).toBe(405);
    expect(
      db()
        .select()
        .from(athletes)
        .where(and(eq(athletes.id, rows[0]!.id), eq(athletes.isDeleted, true)))
        .get(),
    ).toBeDefined();
  });
});

describe("the route table", () => {
  type Route = AgnosticRouteObject & { children?: Route[] };
  const router = createRequire(import.meta.url)("@remix-run/router") as typeof import("@remix-run/router");
  const convert = (entry: RouteConfigEntry): Route =>
    entry.index
      ? { id: entry.id ?? entry.file, index: true, path: entry.path }
      : { id: entry.id ?? entry.file, path: entry.path, children: entry.children?.map(convert) };
  const routes: Route[] = [
    { id: "root", path: "", children: (routeConfig as RouteConfigEntry[]).map(convert) },
  ];
  const leaf = (path: string) => router.matchRoutes(routes, path)?.at(-1);

  it("sends bulk-update and bulk-permanent-delete to their own routes, not to the athlete `:id`", () => {
    expect(leaf("/api/video/athletes/bulk-update")?.route.id).toBe("routes/api/athletes/bulk-update.ts");
    expect(leaf("/api/video/athletes/bulk-permanent-delete")?.route.id).toBe(
      "routes/api/athletes/bulk-permanent-delete.ts",
    );
    expect(leaf("/api/video/athletes/42")).toMatchObject({
      route: { id: "routes/api/athletes/item.ts" },
      params: { id: "42" },
    });
    expect(leaf("/api/video/contests/7/athletes")).toMatchObject({
      route: { id: "routes/api/athletes/contest-athletes.ts" },
      params: { id: "7" },
    });
  });

  it("a DELETE or PATCH sent to a bulk address is that route's 405, never an athlete's delete", async () => {
    for (const method of ["DELETE", "POST"]) {
      const answer = await apiCall(bulkUpdateRoute, method, "/api/video/athletes/bulk-update", {
        token: write,
      });
      expect(answer.status).toBe(405);
    }
    for (const method of ["DELETE", "PATCH"]) {
      const answer = await apiCall(bulkPurgeRoute, method, "/api/video/athletes/bulk-permanent-delete", {
        token: write,
      });
      expect(answer.status).toBe(405);
    }
  });
});
