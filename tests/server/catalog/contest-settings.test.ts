import fs from "node:fs";
import path from "node:path";
import { parseForm } from "~/lib/schemas/parse-form";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import {
  basicInfoSchema,
  categoryAddSchema,
  formatAddSchema,
  formatRenameSchema,
  priceDescriptionSchema,
  publicationSchema,
  tokyoDateTime,
  toTokyoDateTimeInput,
} from "~/lib/schemas/contest-settings-schemas";
import { orderFormOptions } from "~/server/catalog/pricing.server";
import { COVER_MAX_BYTES } from "~/server/media/cover.server";
import { sniffImage } from "~/server/core/sniff.server";
import {
  addCategory,
  addFormat,
  CATEGORY_PALETTE,
  contestSettings,
  deleteCategory,
  deleteFormat,
  moveFormat,
  nextCategoryColor,
  renameFormat,
} from "~/server/catalog/contest-settings.server";
import { createContest, findContestBySlug, listStorefrontContests } from "~/server/catalog/contests.server";
import { isOnSale } from "~/server/catalog/publication.server";
import { db } from "~/server/db/client.server";
import { athletes, contests, mediaItems, priceDescriptions, videoFormats } from "~/server/db/schema";
import { COVER_WIDTHS, coverVariantName } from "~/server/files/storage.server";
import { mediaDir } from "../../helpers/media-dir";
import { commitSession, getSession } from "~/server/http/session.server";
import { createUser } from "../../helpers/accounts";
import { callRoute } from "../../helpers/route";
import { formRequest } from "../../helpers/shop";

const settingsRoute = () => import("~/routes/admin/contest/settings");
const coverRoute = () => import("~/routes/admin/contest/cover");

let adminCookie = "";
beforeAll(async () => {
  const admin = await createUser(`settings-admin-${Date.now()}@example.jp`, "Admin-Password-2025!", {
    isAdmin: true,
  });
  const session = await getSession(new Request("http://shop.test/"));
  session.set("userId", admin.id);
  session.set("loggedInAt", Date.now());
  session.set("adminVerifiedAt", Date.now());
  adminCookie = (await commitSession(session)).split(";")[0] ?? "";
});

function newContest(name = `設定テスト大会${Math.random().toString(36).slice(2, 8)}`) {
  return { id: createContest(name), name };
}

function contestRow(id: number) {
  const row = db().select().from(contests).where(eq(contests.id, id)).get();
  if (!row) throw new Error("contest vanished");
  return row;
}

async function postSettings(contestId: number, fields: [string, string][], cookie = adminCookie) {
  const { action } = await settingsRoute();
  return callRoute(action, formRequest(`/admin/contest/${contestId}/settings`, fields, cookie), {
    id: String(contestId),
  });
}

type Reply = {
  intent: string;
  reply: { status?: string; error?: Record<string, string[]>; initialValue?: Record<string, unknown> };
};

describe("settings forms: validation (one schema for browser and server)", () => {
  const parse = (schema: Parameters<typeof parseForm>[1]["schema"], fields: Record<string, string>) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    return parseForm(form, { schema }).reply().error ?? {};
  };

  it("asks for a non-blank contest name and number label", () => {
    expect(parse(basicInfoSchema, { intent: "basic", name: "  ", bibNumberLabel: "ゼッケン" }).name).toEqual([
      "大会名を入力してください",
    ]);
    expect(
      parse(basicInfoSchema, { intent: "basic", name: "大会", bibNumberLabel: "　 " }).bibNumberLabel,
    ).toEqual(["番号欄の名前を入力してください"]);
    expect(parse(basicInfoSchema, { intent: "basic", name: "大会", bibNumberLabel: "出演番号" })).toEqual({});
  });

  it("asks for non-blank category and format names", () => {
    expect(parse(categoryAddSchema, { intent: "category-add", name: " " }).name).toEqual([
      "部門名を入力してください",
    ]);
    expect(parse(formatAddSchema, { intent: "format-add", name: "" }).name).toEqual([
      "動画形式名を入力してください",
    ]);
    expect(parse(formatRenameSchema, { intent: "format-rename", formatId: "3", name: "  " }).name).toEqual([
      "動画形式名を入力してください",
    ]);
  });

  it("wants both halves of a price row, and drops rows left empty", () => {
    const errors = parse(priceDescriptionSchema, {
      intent: "price",
      "items[0].name": "縦",
      "items[0].price": "",
      "items[1].name": "",
      "items[1].price": "500",
      "items[2].name": "",
      "items[2].price": "",
    });
    expect(errors["items[0].price"]).toEqual(["料金を入力してください"]);
    expect(errors["items[1].name"]).toEqual(["項目名を入力してください"]);
    expect(errors["items[2].name"]).toBeUndefined();
    const many = Object.fromEntries(
      Array.from({ length: 21 }, (_, i) => [
        [`items[${i}].name`, `項目${i}`],
        [`items[${i}].price`, "100"],
      ]).flat(),
    );
    expect(parse(priceDescriptionSchema, { intent: "price", ...many }).items).toEqual([
      "料金の項目は20件までです",
    ]);
    const twentyAndBlanks = Object.fromEntries(
      Array.from({ length: 23 }, (_, i) => [
        [`items[${i}].name`, i < 20 ? `項目${i}` : ""],
        [`items[${i}].price`, i < 20 ? "100" : ""],
      ]).flat(),
    );
    expect(parse(priceDescriptionSchema, { intent: "price", ...twentyAndBlanks })).toEqual({});
  });

  it("reads 公開予約 times in Tokyo and refuses the past", () => {
    expect(tokyoDateTime("2030-01-01T09:00")?.toISOString()).toBe("2030-01-01T00:00:00.000Z");
    expect(tokyoDateTime("2030-02-30T09:00")).toBeNull();
    expect(toTokyoDateTimeInput(new Date("2030-01-01T00:00:00Z"))).toBe("2030-01-01T09:00");
    const now = new Date("2030-01-01T00:00:00Z"); // 09:00 in Tokyo
    const at = (value: string) =>
      parse(publicationSchema(now), { intent: "publication", status: "公開予約", scheduledAt: value })
        .scheduledAt;
    expect(at("2030-01-01T08:59")).toEqual(["公開予約の日時には未来の日時を指定してください"]);
    // 09:00 UTC would already be past in a UTC reading; in Tokyo it is one minute ahead.
    expect(at("2030-01-01T09:01")).toBeUndefined();
    expect(at("")).toEqual(["公開予約の日時を入力してください"]);
    expect(parse(publicationSchema(now), { intent: "publication", status: "公開", scheduledAt: "" })).toEqual(
      {},
    );
  });
});

describe("settings action (the page's forms, without JS)", () => {
  it("is for admins only", async () => {
    const contest = newContest();
    const result = await postSettings(
      contest.id,
      [
        ["intent", "basic"],
        ["name", "乗っ取り"],
        ["bibNumberLabel", "x"],
      ],
      "",
    );
    expect(result.status).toBe(302);
    expect(result.location).toBe("/admin-login");
    expect(contestRow(contest.id).name).toBe(contest.name);
  });

  it("answers a blank name with 400, its message and the typed values", async () => {
    const contest = newContest();
    const result = await postSettings(contest.id, [
      ["intent", "basic"],
      ["name", "   "],
      ["bibNumberLabel", "出演番号"],
    ]);
    expect(result.status).toBe(400);
    const data = result.data as Reply;
    expect(data.intent).toBe("basic");
    expect(data.reply.error?.name).toEqual(["大会名を入力してください"]);
    expect(data.reply.initialValue?.bibNumberLabel).toBe("出演番号");
    expect(contestRow(contest.id).bibNumberLabel).toBe("ゼッケン番号");
  });

  it("renames the contest, moves its storefront slug and sets the number label", async () => {
    const contest = newContest();
    const renamed = `改名後の大会${Math.random().toString(36).slice(2, 8)}`;
    const result = await postSettings(contest.id, [
      ["intent", "basic"],
      ["name", `  ${renamed} `],
      ["bibNumberLabel", " 出演番号 "],
    ]);
    expect(result.status).toBe(303);
    expect(result.location).toBe(`/admin/contest/${contest.id}/settings#basic`);
    expect(contestRow(contest.id)).toMatchObject({ name: renamed, bibNumberLabel: "出演番号" });
    expect(findContestBySlug(renamed)?.id).toBe(contest.id);
    expect(findContestBySlug(contest.name)?.id).not.toBe(contest.id);
  });

  it("refuses an unknown intent and a category of another contest with a 4xx", async () => {
    const contest = newContest();
    expect((await postSettings(contest.id, [["intent", "drop-table"]])).status).toBe(400);
    const other = newContest();
    addCategory(other.id, "他の部門");
    const [foreign] = contestSettings(other.id).categories;
    expect(
      (
        await postSettings(contest.id, [
          ["intent", "category-delete"],
          ["categoryId", String(foreign?.id)],
        ])
      ).status,
    ).toBe(404);
    expect(
      (
        await postSettings(contest.id, [
          ["intent", "category-delete"],
          ["categoryId", "abc"],
        ])
      ).status,
    ).toBe(400);
    expect(contestSettings(other.id).categories).toHaveLength(1);
  });

  it("refuses a past 公開予約 (typed in Tokyo time) and stores a future one without publishing video", async () => {
    const contest = newContest();
    // Typed as a Tokyo wall-clock time: a minute ago in Tokyo would be nine hours ahead if read as UTC.
    const minute = 60_000;
    const nowMs = Math.floor(Date.now() / minute) * minute;
    const pastInput = toTokyoDateTimeInput(nowMs - minute);
    const past = await postSettings(contest.id, [
      ["intent", "publication"],
      ["status", "公開予約"],
      ["scheduledAt", pastInput],
    ]);
    expect(past.status).toBe(400);
    expect((past.data as Reply).reply.error?.scheduledAt).toEqual([
      "公開予約の日時には未来の日時を指定してください",
    ]);
    expect((past.data as Reply).reply.initialValue?.scheduledAt).toBe(pastInput);
    expect(contestRow(contest.id).sitePublicStatus).toBe("非公開");

    const opensAt = nowMs + 30 * minute;
    const future = await postSettings(contest.id, [
      ["intent", "publication"],
      ["status", "公開予約"],
      ["scheduledAt", toTokyoDateTimeInput(opensAt)],
    ]);
    expect(future.status).toBe(303);
    const row = contestRow(contest.id);
    expect(row).toMatchObject({ sitePublicStatus: "公開予約", videoPublished: false });
    expect(row.scheduledPublishDate?.getTime()).toBe(opensAt);
    expect(isOnSale(row, new Date(opensAt - minute))).toBe(false);
    expect(isOnSale(row, new Date(opensAt))).toBe(true);
    expect(listStorefrontContests(new Date(opensAt - minute)).find((c) => c.id === contest.id)).toMatchObject(
      { onSale: false, salesStartAt: new Date(opensAt) },
    );
    expect(listStorefrontContests(new Date(opensAt + minute)).find((c) => c.id === contest.id)?.onSale).toBe(
      true,
    );
  });

  it("sets videoPublished only for 公開, and the home page follows", async () => {
    const contest = newContest();
    const set = (status: string) =>
      postSettings(contest.id, [
        ["intent", "publication"],
        ["status", status],
        ["scheduledAt", ""],
      ]);
    expect((await set("公開")).status).toBe(303);
    expect(contestRow(contest.id)).toMatchObject({
      sitePublicStatus: "公開",
      videoPublished: true,
      scheduledPublishDate: null,
    });
    expect(listStorefrontContests().some((c) => c.id === contest.id && c.onSale)).toBe(true);
    expect((await set("非公開")).status).toBe(303);
    expect(contestRow(contest.id)).toMatchObject({ sitePublicStatus: "非公開", videoPublished: false });
    expect(listStorefrontContests().some((c) => c.id === contest.id)).toBe(false);
    expect((await set("公開中")).status).toBe(400);
  });

  it("saves the price description's filled rows and notes", async () => {
    const contest = newContest();
    const result = await postSettings(contest.id, [
      ["intent", "price"],
      ["items[0].name", "縦型動画"],
      ["items[0].price", "3500"],
      ["items[1].name", ""],
      ["items[1].price", ""],
      ["items[2].name", " 2本セット "],
      ["items[2].price", "6,000円〜"],
      ["notes", "価格は税込です。"],
    ]);
    expect(result.status).toBe(303);
    const saved = db()
      .select()
      .from(priceDescriptions)
      .where(eq(priceDescriptions.contestId, contest.id))
      .get();
    expect(saved?.items).toEqual([
      { name: "縦型動画", price: "3500" },
      { name: "2本セット", price: "6,000円〜" },
    ]);
    expect(saved?.notes).toBe("価格は税込です。");
  });
});

describe("categories", () => {
  it("take the 15 palette colours in order, then random hsl colours; a freed palette colour is used again", () => {
    const contest = newContest();
    for (let i = 1; i <= 16; i += 1) expect(addCategory(contest.id, `部門${i}`)).toEqual({ ok: true });
    const colors = contestSettings(contest.id).categories.map((c) => c.color);
    expect(colors.slice(0, 15)).toEqual([...CATEGORY_PALETTE]);
    expect(colors[15]).toMatch(/^hsl\(\d{1,3}, 65%, 50%\)$/);
    expect(nextCategoryColor([...CATEGORY_PALETTE], () => 0.5)).toBe("hsl(180, 65%, 50%)");

    const third = contestSettings(contest.id).categories[2];
    expect(deleteCategory(contest.id, third?.id ?? 0).ok).toBe(true);
    addCategory(contest.id, "部門17");
    expect(contestSettings(contest.id).categories.at(-1)?.color).toBe(CATEGORY_PALETTE[2]);
  });

  it("refuses a second category of the same name", async () => {
    const contest = newContest();
    addCategory(contest.id, "小学生の部");
    const result = await postSettings(contest.id, [
      ["intent", "category-add"],
      ["name", " 小学生の部 "],
    ]);
    expect(result.status).toBe(409);
    expect((result.data as Reply).reply.error?.name).toEqual(["同じ名前の部門がすでにあります"]);
    expect(contestSettings(contest.id).categories).toHaveLength(1);
  });

  it("deleting one leaves its athletes in the shop as 未分類", () => {
    const contest = newContest();
    addCategory(contest.id, "A部門");
    addCategory(contest.id, "B部門");
    db()
      .insert(athletes)
      .values([
        { contestId: contest.id, athleteNumber: 1, name: "選手1", category: "A部門", videoStatus: "販売中" },
        { contestId: contest.id, athleteNumber: 2, name: "選手2", category: "A部門", videoStatus: "販売中" },
        { contestId: contest.id, athleteNumber: 3, name: "選手3", category: "B部門", videoStatus: "販売中" },
      ])
      .run();
    const a = contestSettings(contest.id).categories.find((c) => c.name === "A部門");
    expect(a?.athletes).toBe(2);
    const result = deleteCategory(contest.id, a?.id ?? 0);
    expect(result).toEqual({ ok: true, name: "A部門", movedAthletes: 2 });
    const rows = db()
      .select()
      .from(athletes)
      .where(eq(athletes.contestId, contest.id))
      .orderBy(athletes.athleteNumber)
      .all();
    expect(rows.map((r) => r.category)).toEqual(["", "", "B部門"]);
    const options = orderFormOptions(contest.id);
    expect(options.categories).toEqual(["B部門", "未分類"]);
    expect(options.athletes.filter((x) => x.category === "未分類").map((x) => x.number)).toEqual([1, 2]);
  });
});

describe("video formats", () => {
  const names = (contestId: number) =>
    contestSettings(contestId).formats.map((f) => `${f.displayOrder}:${f.name}`);

  it("start as 縦 and 横, and can be added, renamed, moved and deleted; the first two map to the 縦 and 横 prices", () => {
    const contest = newContest();
    expect(names(contest.id)).toEqual(["0:縦", "1:横"]);
    expect(addFormat(contest.id, "4K")).toEqual({ ok: true });
    expect(addFormat(contest.id, "4K")).toEqual({
      ok: false,
      field: "name",
      message: "同じ名前の動画形式がすでにあります",
    });
    expect(names(contest.id)).toEqual(["0:縦", "1:横", "2:4K"]);

    const [vertical, horizontal, fourK] = contestSettings(contest.id).formats;
    expect(renameFormat(contest.id, vertical?.id ?? 0, "スマホ向け（縦）")).toEqual({ ok: true });
    expect(renameFormat(contest.id, horizontal?.id ?? 0, "スマホ向け（縦）").ok).toBe(false);
    expect(moveFormat(contest.id, horizontal?.id ?? 0, "up")).toEqual({ ok: true });
    expect(names(contest.id)).toEqual(["0:横", "1:スマホ向け（縦）", "2:4K"]);
    // The order form follows the order: the first format now sells at the 縦 price.
    expect(orderFormOptions(contest.id).formats.map((f) => `${f.name}:${f.orientation}`)).toEqual([
      "横:vertical",
      "スマホ向け（縦）:horizontal",
    ]);

    expect(moveFormat(contest.id, horizontal?.id ?? 0, "up")).toEqual({ ok: true }); // already first: nothing moves
    expect(moveFormat(contest.id, fourK?.id ?? 0, "down")).toEqual({ ok: true });
    expect(deleteFormat(contest.id, horizontal?.id ?? 0)).toEqual({ ok: true });
    expect(names(contest.id)).toEqual(["0:スマホ向け（縦）", "1:4K"]);
    expect(deleteFormat(contest.id, fourK?.id ?? 0)).toEqual({ ok: true });
    expect(deleteFormat(contest.id, vertical?.id ?? 0)).toEqual({
      ok: false,
      field: "format",
      message: "動画形式は1つ以上必要です",
    });
  });

  it("cannot be changed through another contest's page", async () => {
    const mine = newContest();
    const other = newContest();
    const [foreign] = contestSettings(other.id).formats;
    const result = await postSettings(mine.id, [
      ["intent", "format-rename"],
      ["formatId", String(foreign?.id)],
      ["name", "乗っ取り"],
    ]);
    expect(result.status).toBe(409);
    expect(
      (
        await postSettings(mine.id, [
          ["intent", "format-delete"],
          ["formatId", String(foreign?.id)],
        ])
      ).status,
    ).toBe(409);
    expect(
      db()
        .select()
        .from(videoFormats)
        .where(eq(videoFormats.contestId, other.id))
        .all()
        .map((f) => f.name),
    ).toEqual(["縦", "横"]);
  });
});

describe("cover image", () => {
  async function png(width: number, height: number) {
    return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 60 } } })
      .png()
      .toBuffer();
  }

  function uploadRequest(contestId: number, file: Blob, fileName: string, cookie = adminCookie) {
    const form = new FormData();
    form.append("cover", file, fileName);
    return new Request(`http://shop.test/admin/contest/${contestId}/cover`, {
      method: "POST",
      body: form,
      headers: { Cookie: cookie },
    });
  }

  async function upload(contestId: number, file: Blob, fileName: string, cookie = adminCookie) {
    const { action } = await coverRoute();
    return callRoute(action, uploadRequest(contestId, file, fileName, cookie), { id: String(contestId) });
  }

  const covers = (contestId: number) =>
    db().select().from(mediaItems).where(eq(mediaItems.contestId, contestId)).all();
  const filesOf = (storedName: string) =>
    [storedName, ...COVER_WIDTHS.map((w) => coverVariantName(storedName, w))].map((name) =>
      path.join(mediaDir(), name),
    );

  it("knows JPEG, PNG and WebP by their first bytes", () => {
    expect(sniffImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("jpg");
    expect(sniffImage(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe("png");
    expect(sniffImage(new TextEncoder().encode("RIFF\0\0\0\0WEBPVP8 "))).toBe("webp");
    expect(sniffImage(new TextEncoder().encode("GIF89a......"))).toBeNull();
    expect(sniffImage(new TextEncoder().encode("<svg xmlns="))).toBeNull();
  });

  it("stores an upload with its variants, and the newest replaces and deletes the older one", async () => {
    const contest = newContest();
    const first = await upload(
      contest.id,
      new Blob([await png(1280, 720)], { type: "image/png" }),
      "first.png",
    );
    expect(first.status).toBe(303);
    expect(first.location).toBe(`/admin/contest/${contest.id}/cover`);
    const [stored] = covers(contest.id);
    expect(stored).toMatchObject({
      category: "cover-image",
      mediaType: "image",
      contentType: "image/png",
      width: 1280,
      height: 720,
      originalName: "first.png",
    });
    expect(stored?.storedName).toMatch(/^cover-[0-9a-f]{24}\.png$/);
    for (const file of filesOf(stored?.storedName ?? "")) expect(fs.existsSync(file)).toBe(true);
    const variant = await sharp(filesOf(stored?.storedName ?? "")[2] ?? "").metadata();
    expect([variant.format, variant.width, variant.height]).toEqual(["webp", 960, 540]);

    const jpeg = await sharp(await png(1920, 1080))
      .jpeg()
      .toBuffer();
    // The browser's content type is not trusted either way: a JPEG sent as "text/plain" is still a JPEG.
    const second = await upload(contest.id, new Blob([jpeg], { type: "text/plain" }), "second.jpg");
    expect(second.status).toBe(303);
    const remaining = covers(contest.id);
    expect(remaining).toHaveLength(1);
    expect(remaining[0]).toMatchObject({
      originalName: "second.jpg",
      contentType: "image/jpeg",
      width: 1920,
      height: 1080,
    });
    for (const file of filesOf(stored?.storedName ?? "")) expect(fs.existsSync(file)).toBe(false);
    for (const file of filesOf(remaining[0]?.storedName ?? "")) expect(fs.existsSync(file)).toBe(true);

    db()
      .update(contests)
      .set({ videoPublished: true, sitePublicStatus: "公開" })
      .where(eq(contests.id, contest.id))
      .run();
    const card = listStorefrontContests().find((c) => c.id === contest.id);
    expect(card?.cover?.src).toBe(`/media/${coverVariantName(remaining[0]?.storedName ?? "", 960)}`);
  });

  it("refuses a non-image, a spoofed image and a broken one with a Japanese message and leaves no file", async () => {
    const contest = newContest();
    const before = fs.existsSync(mediaDir()) ? fs.readdirSync(mediaDir()).length : 0;
    const text = await upload(
      contest.id,
      new Blob(["これは画像ではありません"], { type: "text/plain" }),
      "note.txt",
    );
    expect(text.status).toBe(400);
    expect(text.data).toEqual({ error: "JPEG・PNG・WebP形式の画像ファイルを選択してください" });
    const spoofed = await upload(
      contest.id,
      new Blob(["<html><script>alert(1)</script></html>"], { type: "image/png" }),
      "evil.png",
    );
    expect(spoofed.status).toBe(400);
    expect(spoofed.data).toEqual({ error: "JPEG・PNG・WebP形式の画像ファイルを選択してください" });
    const broken = await upload(
      contest.id,
      new Blob([Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])], {
        type: "image/png",
      }),
      "broken.png",
    );
    expect(broken.status).toBe(400);
    expect(broken.data).toEqual({ error: "画像を読み取れませんでした。別の画像ファイルを選択してください" });
    const empty = await upload(contest.id, new Blob([]), "");
    expect(empty.status).toBe(400);
    expect(empty.data).toEqual({ error: "画像ファイルを選択してください" });
    expect(covers(contest.id)).toHaveLength(0);
    expect(fs.readdirSync(mediaDir()).length).toBe(before);
  });

  it("refuses a file over the size limit with 413", async () => {
    const contest = newContest();
    const big = new Uint8Array(COVER_MAX_BYTES + 1024);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    const result = await upload(contest.id, new Blob([big], { type: "image/jpeg" }), "huge.jpg");
    expect(result.status).toBe(413);
    expect(result.data).toEqual({ error: "ファイルが大きすぎます（20 MBまで）" });
    expect(covers(contest.id)).toHaveLength(0);
  });

  it("answers a post that is not a multipart upload with 400", async () => {
    const contest = newContest();
    const { action } = await coverRoute();
    const result = await callRoute(
      action,
      formRequest(`/admin/contest/${contest.id}/cover`, [["cover", "not a file"]], adminCookie),
      { id: String(contest.id) },
    );
    expect(result.status).toBe(400);
    expect(covers(contest.id)).toHaveLength(0);
  });

  it("is for admins only", async () => {
    const contest = newContest();
    const result = await upload(contest.id, new Blob([await png(16, 9)], { type: "image/png" }), "x.png", "");
    expect(result.status).toBe(302);
    expect(result.location).toBe("/admin-login");
    expect(covers(contest.id)).toHaveLength(0);
  });
});
