import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as categoriesRoute from "~/routes/api/contests/categories";
import * as categoryRoute from "~/routes/api/contests/category";
import * as formatsRoute from "~/routes/api/contests/video-formats";
import * as formatRoute from "~/routes/api/contests/video-format";
import * as priceRoute from "~/routes/api/contests/price-description";
import { CATEGORY_PALETTE } from "~/server/catalog/contest-settings.server";
import { createContest } from "~/server/catalog/contests.server";
import { orderFormOptions } from "~/server/catalog/pricing.server";
import { db } from "~/server/db/client.server";
import { athletes, categories, priceDescriptions } from "~/server/db/schema";
import { adminWithToken, apiCall } from "../../helpers/api";
import { callRoute } from "../../helpers/route";
import { adminCookie, formRequest } from "../../helpers/shop";

let n = 0;
const newContest = () => createContest(`設定API大会${Date.now().toString(36)}${++n}`);

type Options = Parameters<typeof apiCall>[3];
type Route = Parameters<typeof apiCall>[0];
const call = (
  route: Route,
  method: string,
  path: string,
  params: Record<string, string>,
  options: Options = {},
) => apiCall(route, method, `/api/video/contests/${path}`, { ...options, params });

const categoriesOf = (id: number, method: string, options: Options = {}) =>
  call(categoriesRoute, method, `${id}/categories`, { id: String(id) }, options);
const categoryOf = (id: number, catId: number | string, options: Options = {}) =>
  call(
    categoryRoute,
    "DELETE",
    `${id}/categories/${catId}`,
    { id: String(id), catId: String(catId) },
    options,
  );
const formatsOf = (id: number, method: string, options: Options = {}) =>
  call(formatsRoute, method, `${id}/video-formats`, { id: String(id) }, options);
const formatOf = (id: number, method: string, formatId: number | string, options: Options = {}) =>
  call(
    formatRoute,
    method,
    `${id}/video-formats/${formatId}`,
    { id: String(id), formatId: String(formatId) },
    options,
  );
const priceOf = (id: number, method: string, options: Options = {}) =>
  call(priceRoute, method, `${id}/price-description`, { id: String(id) }, options);

/** The 大会設定 tab's action, as the screen posts it. */
async function postSettings(contestId: number, fields: [string, string][]) {
  const { action } = await import("~/routes/admin/contest/settings");
  return callRoute(action, formRequest(`/admin/contest/${contestId}/settings`, fields, await adminCookie()), {
    id: String(contestId),
  });
}
const screenErrors = (result: { data: unknown }) =>
  (result.data as { reply: { error: Record<string, string[]> } }).reply.error;

type Category = { id: number; contestId: number; name: string; color: string; createdAt: string };
type Format = { id: number; contestId: number; name: string; displayOrder: number };

describe("categories", () => {
  it("lists, adds and deletes a contest's categories as 大会設定 does", async () => {
    const { token } = adminWithToken("write");
    const id = newContest();
    const other = newContest();
    expect(await categoriesOf(id, "GET", { token })).toMatchObject({ status: 200, data: [] });
    // The spec's contestId and color are not the client's to choose.
    const added = await categoriesOf(id, "POST", {
      token,
      json: { contestId: other, name: " 小学生の部 ", color: "#000000" },
    });
    expect(added.status).toBe(201);
    expect(added.data).toEqual({
      id: expect.any(Number) as unknown,
      contestId: id,
      name: "小学生の部",
      color: CATEGORY_PALETTE[0],
      createdAt: expect.any(String) as unknown,
    });
    const category = added.data as Category;
    expect((await categoriesOf(other, "GET", { token })).data).toEqual([]);
    expect(((await categoriesOf(id, "GET", { token })).data as Category[]).map((c) => c.name)).toEqual([
      "小学生の部",
    ]);
    // The storefront's kept options see it at once (the athlete makes the category orderable).
    db()
      .insert(athletes)
      .values({
        contestId: id,
        athleteNumber: 1,
        name: "選手",
        category: "小学生の部",
        videoStatus: "販売中",
      })
      .run();
    expect(orderFormOptions(id).categories).toEqual(["小学生の部"]);

    const deleted = await categoryOf(id, category.id, { token });
    expect(deleted).toMatchObject({
      status: 200,
      data: {
        deleted: category.id,
        name: "小学生の部",
        movedAthletes: 1,
        message: "部門「小学生の部」を削除しました。この部門の選手1人は未分類になりました。",
      },
    });
    expect(orderFormOptions(id).categories).toEqual(["未分類"]);
    expect((await categoryOf(id, category.id, { token })).status).toBe(404);
  });

  it("refuses a blank or taken name with the screen's messages", async () => {
    const { token } = adminWithToken("write");
    const id = newContest();
    expect(await categoriesOf(id, "POST", { token, json: { name: "  " } })).toMatchObject({
      status: 422,
      data: { message: "部門名を入力してください", fields: { name: ["部門名を入力してください"] } },
    });
    expect(await categoriesOf(id, "POST", { token, json: { name: ["A"] } })).toMatchObject({
      status: 422,
      data: { message: "部門名を入力してください" },
    });
    await categoriesOf(id, "POST", { token, json: { name: "一般の部" } });
    const taken = await categoriesOf(id, "POST", { token, json: { name: "一般の部" } });
    expect(taken.status).toBe(409);
    const screen = await postSettings(id, [
      ["intent", "category-add"],
      ["name", "一般の部"],
    ]);
    expect(taken.data).toMatchObject({ fields: { name: screenErrors(screen).name } });
    expect(db().select().from(categories).where(eq(categories.contestId, id)).all()).toHaveLength(1);
  });

  it("a category of another contest cannot be deleted through this contest's address", async () => {
    const { token } = adminWithToken("write");
    const mine = newContest();
    const theirs = newContest();
    const foreign = (await categoriesOf(theirs, "POST", { token, json: { name: "他の部門" } }))
      .data as Category;
    expect(await categoryOf(mine, foreign.id, { token })).toMatchObject({
      status: 404,
      data: { message: "部門が見つかりません" },
    });
    expect((await categoryOf(mine, "x", { token })).status).toBe(404);
    expect((await categoriesOf(theirs, "GET", { token })).data).toHaveLength(1);
  });

  it("only admins; a read-only token only reads; unknown contest 404; wrong method 405", async () => {
    const id = newContest();
    const { token: reader } = adminWithToken("read");
    expect((await categoriesOf(id, "GET")).status).toBe(401);
    expect((await categoriesOf(id, "GET", { cookie: await adminCookie({ isAdmin: false }) })).status).toBe(
      401,
    );
    expect((await categoriesOf(id, "GET", { token: reader })).status).toBe(200);
    expect((await categoriesOf(id, "POST", { token: reader, json: { name: "x" } })).status).toBe(403);
    expect((await categoriesOf(id, "POST", { json: { name: "x" } })).status).toBe(401);
    expect((await categoryOf(id, 1, { token: reader })).status).toBe(403);
    expect((await categoriesOf(99_999_999, "GET", { token: reader })).status).toBe(404);
    expect((await categoriesOf(id, "DELETE", { token: reader })).status).toBe(405);
    const { token } = adminWithToken("write");
    const request = new Request(`http://shop.test/api/video/contests/${id}/categories`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: '{"name": ',
    });
    expect((await callRoute(categoriesRoute.action, request, { id: String(id) })).status).toBe(400);
  });
});

describe("video formats", () => {
  it("lists the defaults, adds one last, renames and moves it, deletes it", async () => {
    const { token } = adminWithToken("write");
    const id = newContest();
    const listed = await formatsOf(id, "GET", { token });
    expect((listed.data as Format[]).map((f) => [f.name, f.displayOrder, f.contestId])).toEqual([
      ["縦", 0, id],
      ["横", 1, id],
    ]);
    // The spec's displayOrder is not the client's on creation: a new format goes last, as on the screen.
    const added = await formatsOf(id, "POST", {
      token,
      json: { contestId: id, name: "4K", displayOrder: 0 },
    });
    expect(added).toMatchObject({ status: 201, data: { contestId: id, name: "4K", displayOrder: 2 } });
    const format = added.data as Format;

    expect(
      await formatOf(id, "PUT", format.id, { token, json: { name: "4K（横）", displayOrder: 0 } }),
    ).toMatchObject({
      status: 200,
      data: { id: format.id, name: "4K（横）", displayOrder: 0 },
    });
    const order = () =>
      formatsOf(id, "GET", { token }).then((r) =>
        (r.data as Format[]).map((f) => `${f.displayOrder}:${f.name}`),
      );
    expect(await order()).toEqual(["0:4K（横）", "1:縦", "2:横"]);
    // The storefront's kept formats see it at once: the first two are sold, the first priced as 縦.
    expect(orderFormOptions(id).formats.map((f) => [f.name, f.orientation])).toEqual([
      ["4K（横）", "vertical"],
      ["縦", "horizontal"],
    ]);
    // Past the end is last.
    expect(await formatOf(id, "PUT", format.id, { token, json: { displayOrder: 9 } })).toMatchObject({
      data: { displayOrder: 2 },
    });
    expect(await order()).toEqual(["0:縦", "1:横", "2:4K（横）"]);

    expect(await formatOf(id, "DELETE", format.id, { token })).toMatchObject({
      status: 200,
      data: { deleted: format.id, message: "動画形式を削除しました。" },
    });
    expect((await formatOf(id, "DELETE", format.id, { token })).status).toBe(404);
  });

  it("refuses as the screen does: blank or taken names, the last format, nothing to change", async () => {
    const { token } = adminWithToken("write");
    const id = newContest();
    const [vertical, horizontal] = (await formatsOf(id, "GET", { token })).data as Format[];
    expect(await formatsOf(id, "POST", { token, json: { name: "" } })).toMatchObject({
      status: 422,
      data: { fields: { name: ["動画形式名を入力してください"] } },
    });
    const taken = await formatsOf(id, "POST", { token, json: { name: "縦" } });
    const screen = await postSettings(id, [
      ["intent", "format-add"],
      ["name", "縦"],
    ]);
    expect(taken).toMatchObject({ status: 409, data: { fields: { name: screenErrors(screen).name } } });
    expect(await formatOf(id, "PUT", horizontal!.id, { token, json: { name: "縦" } })).toMatchObject({
      status: 409,
      data: { fields: { name: ["同じ名前の動画形式がすでにあります"] } },
    });
    expect(await formatOf(id, "PUT", horizontal!.id, { token, json: {} })).toMatchObject({
      status: 422,
      data: { fields: { _form: ["変更する name または displayOrder を指定してください"] } },
    });
    for (const displayOrder of [-1, 1.5, "abc"])
      expect(await formatOf(id, "PUT", horizontal!.id, { token, json: { displayOrder } })).toMatchObject({
        status: 422,
        data: { fields: { displayOrder: ["displayOrder は 0 以上の整数で指定してください"] } },
      });
    expect((await formatOf(id, "DELETE", horizontal!.id, { token })).status).toBe(200);
    expect(await formatOf(id, "DELETE", vertical!.id, { token })).toMatchObject({
      status: 409,
      data: { message: "動画形式は1つ以上必要です" },
    });
  });

  it("a format of another contest is not found through this contest's address", async () => {
    const { token } = adminWithToken("write");
    const mine = newContest();
    const [foreign] = (await formatsOf(newContest(), "GET", { token })).data as Format[];
    expect((await formatOf(mine, "PUT", foreign!.id, { token, json: { name: "乗っ取り" } })).status).toBe(
      404,
    );
    expect((await formatOf(mine, "DELETE", foreign!.id, { token })).status).toBe(404);
    expect((await formatOf(mine, "PUT", "0", { token, json: { name: "x" } })).status).toBe(404);
  });

  it("only admins; a read-only token only reads; wrong method 405", async () => {
    const id = newContest();
    const { token: reader } = adminWithToken("read");
    const [format] = (await formatsOf(id, "GET", { token: reader })).data as Format[];
    expect((await formatsOf(id, "GET")).status).toBe(401);
    expect((await formatsOf(id, "POST", { token: reader, json: { name: "x" } })).status).toBe(403);
    expect((await formatOf(id, "PUT", format!.id, { token: reader, json: { name: "x" } })).status).toBe(403);
    expect((await formatOf(id, "DELETE", format!.id)).status).toBe(401);
    const patch = await formatOf(id, "PATCH", format!.id, { token: reader, json: {} });
    expect(patch.status).toBe(405);
    expect(patch.headers.get("Allow")).toBe("PUT, DELETE");
  });
});

describe("price description", () => {
  it("reads and replaces items and notes as 大会設定 saves them (blank rows dropped, a number price as its text)", async () => {
    const { token } = adminWithToken("write");
    const id = newContest();
    expect(await priceOf(id, "GET", { token })).toMatchObject({
      status: 200,
      data: {
        items: [
          { name: "縦型動画", price: "3000" },
          { name: "横型動画", price: "4500" },
        ],
        notes: "",
      },
    });
    const saved = await priceOf(id, "PUT", {
      token,
      json: {
        items: [
          { name: " 縦型動画 ", price: 3500 },
          { name: "", price: "" },
          { name: "横型動画", price: "5,000円〜" },
        ],
        notes: "税込です",
      },
    });
    expect(saved).toEqual(
      expect.objectContaining({
        status: 200,
        data: {
          items: [
            { name: "縦型動画", price: "3500" },
            { name: "横型動画", price: "5,000円〜" },
          ],
          notes: "税込です",
        },
      }),
    );
    expect(
      db().select().from(priceDescriptions).where(eq(priceDescriptions.contestId, id)).get(),
    ).toMatchObject({
      notes: "税込です",
    });
  });

  it("refuses what the form refuses, with its messages per row, and keeps what was saved", async () => {
    const { token } = adminWithToken("write");
    const id = newContest();
    const before = (await priceOf(id, "GET", { token })).data;
    const put = (json: unknown) => priceOf(id, "PUT", { token, json });
    expect(await put({ items: [{ name: "縦型動画" }] })).toMatchObject({
      status: 422,
      data: { fields: { "items.0.price": ["料金を入力してください"] } },
    });
    const screen = await postSettings(id, [
      ["intent", "price"],
      ["items[0].name", "縦型動画"],
      ["items[0].price", ""],
    ]);
    expect(screenErrors(screen)["items[0].price"]).toEqual(["料金を入力してください"]);
    expect(await put({ items: "縦型動画 3000円" })).toMatchObject({
      status: 422,
      data: { message: "料金の項目は項目名（name）と料金（price）の組で入力してください" },
    });
    expect(await put({ items: ["縦型動画"] })).toMatchObject({ status: 422 });
    expect(await put({ items: [], notes: 5 })).toMatchObject({
      status: 422,
      data: { fields: { notes: ["備考は文字で入力してください"] } },
    });
    const tooMany = Array.from({ length: 21 }, (_, i) => ({ name: `項目${i}`, price: "1" }));
    expect(await put({ items: tooMany })).toMatchObject({
      status: 422,
      data: { message: "料金の項目は20件までです" },
    });
    expect((await priceOf(id, "GET", { token })).data).toEqual(before);
  });

  it("only admins; a read-only token only reads; unknown contest 404; wrong method 405", async () => {
    const id = newContest();
    const { token: reader } = adminWithToken("read");
    expect((await priceOf(id, "GET")).status).toBe(401);
    expect((await priceOf(id, "PUT", { token: reader, json: { items: [] } })).status).toBe(403);
    expect((await priceOf(99_999_999, "GET", { token: reader })).status).toBe(404);
    expect((await priceOf(id, "POST", { token: reader, json: {} })).status).toBe(405);
  });
});
