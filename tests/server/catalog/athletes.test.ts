import { parseForm } from "~/lib/schemas/parse-form";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  addAthletesSchema,
  athleteRowSchema,
  bulkAthletesSchema,
  displayStatus,
  singleAthleteSchema,
} from "~/lib/schemas/athlete-schemas";
import { applyBulk, applySingle } from "~/server/catalog/athlete-bulk.server";
import { addAthletes, updateAthlete } from "~/server/catalog/athlete-edits.server";
import { listAthletes } from "~/server/catalog/athletes.server";
import { orderFormOptions, priceColumnNames } from "~/server/catalog/pricing.server";
import { createContest } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { athletes, categories, users } from "~/server/db/schema";
import { commitSession, getSession } from "~/server/http/session.server";
import { callRoute } from "../../helpers/route";
import { formRequest } from "../../helpers/shop";

function contest() {
  return createContest(`選手テスト大会${Math.random().toString(36).slice(2, 8)}`);
}

function athletesOf(contestId: number) {
  return db()
    .select()
    .from(athletes)
    .where(eq(athletes.contestId, contestId))
    .orderBy(asc(athletes.athleteNumber))
    .all();
}

function form(fields: Record<string, string | string[]>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(key, v);
  return data;
}

function rowInput(athlete: typeof athletes.$inferSelect, changes: Record<string, string> = {}) {
  return form({
    id: String(athlete.id),
    athleteNumber: String(athlete.athleteNumber),
    name: athlete.name,
    category: athlete.category,
    verticalVideoPrice: String(athlete.verticalVideoPrice ?? ""),
    horizontalVideoPrice: String(athlete.horizontalVideoPrice ?? ""),
    videoStatus: athlete.videoStatus,
    photoStatus: athlete.photoStatus,
    ...changes,
  });
}

/** A submission's field errors (status "error"), or undefined. */
function errorsOf(submission: { reply: () => { error?: Record<string, string[] | null> | null } }) {
  return submission.reply().error ?? undefined;
}

function parsedRow(data: FormData) {
  const submission = parseForm(data, { schema: athleteRowSchema });
  if (submission.status !== "success") throw new Error(JSON.stringify(submission.error));
  return submission.value;
}

async function adminCookie() {
  const admin = db()
    .insert(users)
    .values({
      email: `admin-${Math.random().toString(36).slice(2)}@example.jp`,
      passwordHash: "x",
      isAdmin: true,
    })
    .returning()
    .get();
  const session = await getSession(new Request("http://shop.test/"));
  session.set("userId", admin.id);
  session.set("loggedInAt", Date.now());
  session.set("adminVerifiedAt", Date.now());
  return (await commitSession(session)).split(";")[0] ?? "";
}

const route = () => import("~/routes/admin/contest/athletes");

async function post(contestId: number, fields: [string, string][], cookie: string, search = "") {
  return callRoute(
    (await route()).action,
    formRequest(`/admin/contest/${contestId}?index${search}`, fields, cookie),
    { id: String(contestId) },
  );
}

describe("adding athletes", () => {
  it("numbers from the highest + 1 with the defaults 選手{n}, 5000/5000 and 未撮影", () => {
    const id = contest();
    expect(addAthletes(id, 3)).toEqual({ first: 1, last: 3 });
    const rows = athletesOf(id);
    expect(
      rows.map((a) => [
        a.athleteNumber,
        a.name,
        a.verticalVideoPrice,
        a.horizontalVideoPrice,
        a.videoStatus,
        a.photoStatus,
        a.category,
        a.isDeleted,
      ]),
    ).toEqual([
      [1, "選手1", 5000, 5000, "未撮影", "未撮影", "", false],
      [2, "選手2", 5000, 5000, "未撮影", "未撮影", "", false],
      [3, "選手3", 5000, 5000, "未撮影", "未撮影", "", false],
    ]);
    // An admin renumbered one athlete to 40: the next comes after it.
    db().update(athletes).set({ athleteNumber: 40 }).where(eq(athletes.id, rows[1]!.id)).run();
    expect(addAthletes(id, 1)).toEqual({ first: 41, last: 41 });
    // Another contest's numbers do not count.
    expect(addAthletes(contest(), 2)).toEqual({ first: 1, last: 2 });
  });

  it("keeps numbering after soft deletes (deleted ones still hold their numbers) and after permanent deletes", () => {
    const id = contest();
    addAthletes(id, 5);
    const rows = athletesOf(id);
    expect(applyBulk(id, { intent: "bulk-delete", ids: [rows[4]!.id] })).toEqual({ ok: true, count: 1 });
    expect(addAthletes(id, 1)).toEqual({ first: 6, last: 6 });
    const six = athletesOf(id).find((a) => a.athleteNumber === 6)!;
    applyBulk(id, { intent: "bulk-delete", ids: [six.id] });
    expect(applyBulk(id, { intent: "bulk-purge", ids: [six.id, rows[4]!.id] })).toEqual({
      ok: true,
      count: 2,
    });
    expect(addAthletes(id, 2)).toEqual({ first: 5, last: 6 });
  });

  it("asks for a whole number from 1 to 500 with 正しい数を入力してください", () => {
    for (const bad of ["", "0", "-3", "1.5", "abc", "501"]) {
      const submission = parseForm(form({ count: bad }), { schema: addAthletesSchema });
      expect(submission.status, bad).toBe("error");
      expect(errorsOf(submission)?.count?.[0], bad).toContain("正しい数を入力してください");
    }
    expect(errorsOf(parseForm(form({ count: "501" }), { schema: addAthletesSchema }))?.count?.[0]).toContain(
      "500人まで",
    );
    expect(parseForm(form({ count: "30" }), { schema: addAthletesSchema })).toMatchObject({
      status: "success",
      value: { count: 30 },
    });
  });

  it("adds through the action with a 303 and a toast, and answers a bad number with 400 keeping what was typed", async () => {
    const id = contest();
    const cookie = await adminCookie();
    const bad = await post(
      id,
      [
        ["intent", "add"],
        ["count", "0"],
      ],
      cookie,
    );
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({
      kind: "add",
      ok: false,
      reply: { initialValue: { count: "0" }, error: { count: ["正しい数を入力してください"] } },
    });
    expect(athletesOf(id)).toHaveLength(0);
    const good = await post(
      id,
      [
        ["intent", "add"],
        ["count", "30"],
      ],
      cookie,
    );
    expect(good.status).toBe(303);
    expect(good.location).toBe(`/admin/contest/${id}`);
    expect(athletesOf(id)).toHaveLength(30);
  });
});

describe("editing a row", () => {
  it("saves name, number, category, prices and statuses; an empty category is 未分類", () => {
    const id = contest();
    db().insert(categories).values({ contestId: id, name: "キッズ部門", color: "#ef4444" }).run();
    addAthletes(id, 1);
    const [athlete] = athletesOf(id);
    const input = parsedRow(
      rowInput(athlete!, {
        name: "  山田 花子 ",
        athleteNumber: "12",
        category: "キッズ部門",
        verticalVideoPrice: "3000",
        horizontalVideoPrice: "4500",
        videoStatus: "販売中",
        photoStatus: "受注停止",
      }),
    );
    expect(updateAthlete(id, input)).toEqual({ ok: true, count: 1 });
    expect(athletesOf(id)[0]).toMatchObject({
      name: "山田 花子",
      athleteNumber: 12,
      category: "キッズ部門",
      verticalVideoPrice: 3000,
      horizontalVideoPrice: 4500,
      videoStatus: "販売中",
      photoStatus: "受注停止",
    });
    expect(parsedRow(rowInput(athlete!, { category: "未分類" })).category).toBe("");
  });

  it("refuses bad input with Japanese messages", () => {
    const base = {
      id: 1,
      athleteNumber: 1,
      name: "x",
      category: "",
      verticalVideoPrice: 1,
      horizontalVideoPrice: 1,
      videoStatus: "販売中",
      photoStatus: "販売中",
    } as const;
    const errorsFor = (changes: Record<string, string>) =>
      errorsOf(
        parseForm(
          form({ ...Object.fromEntries(Object.entries(base).map(([k, v]) => [k, String(v)])), ...changes }),
          { schema: athleteRowSchema },
        ),
      );
    expect(errorsFor({ name: "   " })?.name).toEqual(["選手名を入力してください"]);
    expect(errorsFor({ athleteNumber: "-1" })?.athleteNumber).toEqual([
      "番号は0以上の整数で入力してください",
    ]);
    expect(errorsFor({ athleteNumber: "1.5" })?.athleteNumber).toEqual([
      "番号は0以上の整数で入力してください",
    ]);
    expect(errorsFor({ verticalVideoPrice: "-100" })?.verticalVideoPrice).toEqual([
      "価格は0以上の整数で入力してください",
    ]);
    expect(errorsFor({ horizontalVideoPrice: "12.5" })?.horizontalVideoPrice).toEqual([
      "価格は0以上の整数で入力してください",
    ]);
    expect(errorsFor({ horizontalVideoPrice: "" })?.horizontalVideoPrice).toEqual(["価格を入力してください"]);
    // Read as the admin wrote it, not as JavaScript's Number() would: 1e3 is no 1,000, 0x10 no 16.
    for (const typed of ["1e3", "0x10"])
      expect(errorsFor({ verticalVideoPrice: typed })?.verticalVideoPrice, typed).toEqual([
        "価格は0以上の整数で入力してください",
      ]);
    expect(errorsFor({ verticalVideoPrice: "３,０００" })).toBeUndefined();
    expect(errorsFor({ videoStatus: "売り切れ" })?.videoStatus).toEqual(["ステータスを選択してください"]);
    expect(errorsFor({})).toBeUndefined();
  });

  it("keeps a legacy status when the row is saved unchanged, but does not let one be chosen", () => {
    const id = contest();
    addAthletes(id, 1);
    const [athlete] = athletesOf(id);
    expect(updateAthlete(id, parsedRow(rowInput(athlete!, { name: "改名" })))).toEqual({
      ok: true,
      count: 1,
    });
    expect(athletesOf(id)[0]).toMatchObject({ name: "改名", videoStatus: "未撮影", photoStatus: "未撮影" });
    expect(updateAthlete(id, parsedRow(rowInput(athlete!, { videoStatus: "編集中" })))).toMatchObject({
      ok: false,
      status: 400,
      field: "videoStatus",
    });
    expect(updateAthlete(id, parsedRow(rowInput(athlete!, { videoStatus: "確認中" })))).toEqual({
      ok: true,
      count: 1,
    });
    expect(athletesOf(id)[0]?.videoStatus).toBe("確認中");
  });

  it("refuses a category the contest does not have, and an athlete of another contest", () => {
    const id = contest();
    const other = contest();
    addAthletes(id, 1);
    addAthletes(other, 1);
    const [mine] = athletesOf(id);
    const [theirs] = athletesOf(other);
    expect(updateAthlete(id, parsedRow(rowInput(mine!, { category: "存在しない部門" })))).toMatchObject({
      ok: false,
      status: 400,
      field: "category",
      message: "部門を選択してください",
    });
    expect(updateAthlete(id, parsedRow(rowInput(theirs!, { name: "乗っ取り" })))).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(athletesOf(other)[0]?.name).toBe("選手1");
  });

  it("answers a tampered id through the action with 404 and changes nothing; a bad field with 400 and the typed values", async () => {
    const id = contest();
    const other = contest();
    addAthletes(other, 1);
    const [theirs] = athletesOf(other);
    const cookie = await adminCookie();
    const fields = (athlete: typeof theirs, changes: Record<string, string>): [string, string][] => [
      ["intent", "update"],
      ...[...rowInput(athlete!, changes).entries()].map(([k, v]) => [k, String(v)] as [string, string]),
    ];
    const tampered = await post(id, fields(theirs, { name: "乗っ取り" }), cookie);
    expect(tampered.status).toBe(404);
    expect(tampered.data).toMatchObject({
      kind: "row",
      ok: false,
      message: expect.stringContaining("選手が見つかりません"),
    });
    expect(athletesOf(other)[0]?.name).toBe("選手1");
    addAthletes(id, 1);
    const [mine] = athletesOf(id);
    const blank = await post(id, fields(mine, { name: " ", verticalVideoPrice: "1200" }), cookie);
    expect(blank.status).toBe(400);
    expect(blank.data).toMatchObject({
      reply: { initialValue: { verticalVideoPrice: "1200" }, error: { name: ["選手名を入力してください"] } },
    });
    const viaScript = await post(
      id,
      [...fields(mine, { name: "佐藤" }), ["reply", "fetcher"]],
      cookie,
      "&view=active&page=1",
    );
    expect(viaScript).toMatchObject({ status: 200, data: { ok: true, kind: "row", id: mine!.id } });
    const plain = await post(id, fields(mine, { name: "佐藤 二郎" }), cookie, "&q=%E4%BD%90&purge=9");
    expect(plain.status).toBe(303);
    expect(plain.location).toBe(`/admin/contest/${id}?q=%E4%BD%90`);
  });
});

describe("bulk actions", () => {
  it("sets only the prices and statuses given, on the selected athletes only", () => {
    const id = contest();
    addAthletes(id, 4);
    const rows = athletesOf(id);
    expect(
      applyBulk(id, {
        intent: "bulk-update",
        ids: [rows[0]!.id, rows[1]!.id],
        horizontalVideoPrice: 7000,
        videoStatus: "販売中",
      }),
    ).toEqual({ ok: true, count: 2 });
    expect(
      athletesOf(id).map((a) => [a.verticalVideoPrice, a.horizontalVideoPrice, a.videoStatus, a.photoStatus]),
    ).toEqual([
      [5000, 7000, "販売中", "未撮影"],
      [5000, 7000, "販売中", "未撮影"],
      [5000, 5000, "未撮影", "未撮影"],
      [5000, 5000, "未撮影", "未撮影"],
    ]);
    applyBulk(id, {
      intent: "bulk-update",
      ids: [rows[3]!.id],
      verticalVideoPrice: 0,
      photoStatus: "受注停止",
    });
    expect(athletesOf(id)[3]).toMatchObject({
      verticalVideoPrice: 0,
      horizontalVideoPrice: 5000,
      photoStatus: "受注停止",
    });
  });

  it("validates the bulk form: a selection, something to change, whole prices, sales statuses only, and a confirmation to purge", () => {
    const parse = (fields: Record<string, string | string[]>) =>
      parseForm(form(fields), { schema: bulkAthletesSchema });
    const errors = (fields: Record<string, string | string[]>) => errorsOf(parse(fields));
    expect(errors({ intent: "bulk-update", verticalVideoPrice: "3000" })?.ids).toEqual([
      "選手を選択してください",
    ]);
    expect(errors({ intent: "bulk-update", ids: "1" })?.[""]).toEqual([
      "変更する価格またはステータスを入力してください",
    ]);
    expect(
      errors({ intent: "bulk-update", ids: ["1", "2"], verticalVideoPrice: "-1" })?.verticalVideoPrice,
    ).toEqual(["価格は0以上の整数で入力してください"]);
    expect(errors({ intent: "bulk-update", ids: "1", videoStatus: "未撮影" })?.videoStatus).toEqual([
      "ステータスを選択してください",
    ]);
    expect(errors({ intent: "bulk-purge", ids: "1" })?.confirm).toBeDefined();
    expect(parse({ intent: "bulk-purge", ids: "1", confirm: "yes" })).toMatchObject({
      status: "success",
      value: { ids: [1] },
    });
    expect(parse({ intent: "bulk-update", ids: ["3", "4"], horizontalVideoPrice: "4500" })).toMatchObject({
      status: "success",
      value: { ids: [3, 4], horizontalVideoPrice: 4500 },
    });
    expect(parseForm(form({ intent: "purge", id: "3" }), { schema: singleAthleteSchema }).status).toBe(
      "error",
    );
  });

  it("soft-deletes, lists in 削除済み, restores, and permanently deletes only deleted athletes", () => {
    const id = contest();
    addAthletes(id, 3);
    const [a, b, c] = athletesOf(id);
    expect(applyBulk(id, { intent: "bulk-delete", ids: [a!.id, b!.id] })).toEqual({ ok: true, count: 2 });
    const active = listAthletes(id, { view: "active", page: 1, q: "", category: null });
    expect(active.rows.map((r) => r.id)).toEqual([c!.id]);
    expect([active.activeCount, active.deletedCount]).toEqual([1, 2]);
    expect(
      listAthletes(id, { view: "deleted", page: 1, q: "", category: null }).rows.map((r) => r.id),
    ).toEqual([a!.id, b!.id]);
    // An active athlete cannot be purged directly, and nothing of a mixed selection changes.
    expect(applyBulk(id, { intent: "bulk-purge", ids: [a!.id, c!.id] })).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(athletesOf(id)).toHaveLength(3);
    expect(applySingle(id, "restore", a!.id)).toEqual({ ok: true, count: 1 });
    expect(applySingle(id, "purge", b!.id)).toEqual({ ok: true, count: 1 });
    expect(athletesOf(id).map((x) => [x.id, x.isDeleted])).toEqual([
      [a!.id, false],
      [c!.id, false],
    ]);
  });

  it("refuses ids of another contest for every bulk action and changes nothing", async () => {
    const id = contest();
    const other = contest();
    addAthletes(id, 1);
    addAthletes(other, 1);
    const [mine] = athletesOf(id);
    const [theirs] = athletesOf(other);
    for (const intent of ["bulk-update", "bulk-delete"] as const) {
      expect(applyBulk(id, { intent, ids: [mine!.id, theirs!.id], verticalVideoPrice: 1 })).toMatchObject({
        ok: false,
        status: 404,
      });
    }
    applyBulk(other, { intent: "bulk-delete", ids: [theirs!.id] });
    for (const intent of ["bulk-restore", "bulk-purge"] as const)
      expect(applyBulk(id, { intent, ids: [theirs!.id] })).toMatchObject({ ok: false, status: 404 });
    expect(athletesOf(id)[0]).toMatchObject({ verticalVideoPrice: 5000, isDeleted: false });
    expect(athletesOf(other)[0]).toMatchObject({ verticalVideoPrice: 5000, isDeleted: true });

    const cookie = await adminCookie();
    const refused = await post(
      id,
      [
        ["intent", "bulk-restore"],
        ["ids", String(theirs!.id)],
      ],
      cookie,
    );
    expect(refused.status).toBe(404);
    expect(refused.data).toMatchObject({
      kind: "bulk",
      ok: false,
      message: expect.stringContaining("この大会の選手ではない"),
    });
    const single = await post(
      id,
      [
        ["intent", "purge"],
        ["id", String(theirs!.id)],
        ["confirm", "yes"],
      ],
      cookie,
    );
    expect(single.status).toBe(404);
    expect(athletesOf(other)).toHaveLength(1);
  });

  it("refuses the action to anyone not signed in as admin", async () => {
    const id = contest();
    addAthletes(id, 1);
    const result = await post(
      id,
      [
        ["intent", "bulk-delete"],
        ["ids", String(athletesOf(id)[0]!.id)],
      ],
      "",
    );
    expect(result.status).toBe(302);
    expect(result.location).toBe("/admin-login");
    expect(athletesOf(id)[0]?.isDeleted).toBe(false);
  });
});

describe("list and storefront", () => {
  it("pages 50 at a time in number order, searches by number or name, filters by category (未分類 = empty)", () => {
    const id = contest();
    addAthletes(id, 120);
    const page3 = listAthletes(id, { view: "active", page: 3, q: "", category: null });
    expect([page3.rows.length, page3.pages, page3.matching, page3.rows[0]?.athleteNumber]).toEqual([
      20, 3, 120, 101,
    ]);
    expect(listAthletes(id, { view: "active", page: 99, q: "", category: null }).page).toBe(3);
    expect(
      listAthletes(id, { view: "active", page: 1, q: "7", category: null }).rows.map((r) => r.athleteNumber),
    ).toContain(7);
    expect(
      listAthletes(id, { view: "active", page: 1, q: "選手11", category: null }).rows.map(
        (r) => r.athleteNumber,
      ),
    ).toEqual([11, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119]);
    const first = athletesOf(id)[0]!;
    db().insert(categories).values({ contestId: id, name: "A部門", color: "#000" }).run();
    db().update(athletes).set({ category: "A部門" }).where(eq(athletes.id, first.id)).run();
    expect(
      listAthletes(id, { view: "active", page: 1, q: "", category: "A部門" }).rows.map((r) => r.id),
    ).toEqual([first.id]);
    expect(listAthletes(id, { view: "active", page: 1, q: "", category: "" }).matching).toBe(119);
    expect(listAthletes(id, { view: "active", page: 1, q: "100%", category: null }).matching).toBe(0);
  });

  it("shows legacy statuses as 確認中", () => {
    expect(["未撮影", "撮影完了", "編集中", "確認中", "何か"].map(displayStatus)).toEqual([
      "確認中",
      "確認中",
      "確認中",
      "確認中",
      "確認中",
    ]);
    expect(displayStatus("販売中")).toBe("販売中");
    expect(displayStatus("受注停止")).toBe("受注停止");
  });

  it("labels the price columns with the contest's first two formats", () => {
    expect(priceColumnNames(contest())).toEqual(["縦", "横"]);
  });

  it("offers on the order form exactly the active athletes marked 販売中", () => {
    const id = contest();
    addAthletes(id, 3);
    const [a, b, c] = athletesOf(id);
    expect(orderFormOptions(id).athletes).toHaveLength(0);
    applyBulk(id, { intent: "bulk-update", ids: [a!.id, b!.id, c!.id], videoStatus: "販売中" });
    applyBulk(id, { intent: "bulk-update", ids: [b!.id], videoStatus: "受注停止" });
    applySingle(id, "delete", c!.id);
    expect(orderFormOptions(id).athletes.map((x) => x.id)).toEqual([a!.id]);
    expect(
      db()
        .select()
        .from(athletes)
        .where(and(eq(athletes.contestId, id), eq(athletes.videoStatus, "販売中")))
        .all(),
    ).toHaveLength(2);
  });

  it("the tab's loader pages, counts both views, and offers the no-JS purge confirmation only for a deleted athlete of this contest", async () => {
    const id = contest();
    addAthletes(id, 60);
    const rows = athletesOf(id);
    applyBulk(id, { intent: "bulk-delete", ids: [rows[0]!.id] });
    const cookie = await adminCookie();
    const load = async (search: string) =>
      (
        await callRoute(
          (await route()).loader,
          new Request(`http://shop.test/admin/contest/${id}${search}`, { headers: { Cookie: cookie } }),
          { id: String(id) },
        )
      ).data as {
        rows: { athleteNumber: number }[];
        page: number;
        pages: number;
        activeCount: number;
        deletedCount: number;
        purgeTarget: { id: number } | null;
        priceNames: string[];
      };
    const second = await load("?page=2");
    expect([
      second.rows.length,
      second.rows[0]?.athleteNumber,
      second.page,
      second.pages,
      second.activeCount,
      second.deletedCount,
    ]).toEqual([9, 52, 2, 2, 59, 1]);
    expect(second.priceNames).toEqual(["縦", "横"]);
    expect((await load(`?view=deleted&purge=${rows[0]!.id}`)).purgeTarget).toMatchObject({ id: rows[0]!.id });
    expect((await load(`?view=deleted&purge=${rows[1]!.id}`)).purgeTarget).toBeNull();
    const other = contest();
    addAthletes(other, 1);
    const foreign = athletesOf(other)[0]!;
    applyBulk(other, { intent: "bulk-delete", ids: [foreign.id] });
    expect((await load(`?view=deleted&purge=${foreign.id}`)).purgeTarget).toBeNull();
    const missing = await callRoute(
      (await route()).loader,
      new Request("http://shop.test/admin/contest/999999", { headers: { Cookie: cookie } }),
      { id: "999999" },
    );
    expect(missing.status).toBe(404);
  });
});
