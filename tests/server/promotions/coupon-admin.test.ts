import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { SubmissionResult } from "@conform-to/react";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { contests, couponUses, coupons, orders } from "~/server/db/schema";
import {
  COUPON_CONTEST_UNKNOWN_MESSAGE,
  COUPON_CODE_TAKEN_MESSAGE,
  COUPON_LOCKED_MESSAGE,
  listCoupons,
} from "~/server/promotions/coupon-admin.server";
import { COUPON_HOLD_LEASE_MS } from "~/server/promotions/coupons.server";
import { action, loader } from "~/routes/admin/coupons";
import { discountedOrder, DISCOUNTED } from "../../helpers/discounted-orders";
import { callRoute } from "../../helpers/route";
import { adminCookie, formRequest, seedContest, sessionCookie } from "../../helpers/shop";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";
import { createUser } from "../../helpers/accounts";

/*
 * クーポン管理 as an admin uses it without JavaScript: the form posted to /admin/coupons, each
 * refusal with its message and the typed values sent back, the list's figures, and the admin
 * check (*coupon created by a non-admin*).
 */

smtpServerForThisFile();
afterEach(() => setClock(null));

let n = 0;
const uniqueCode = (prefix = "ADM") =>
  `${prefix}${++n}${Math.random().toString(36).slice(2, 6).toUpperCase()}`;

type Fields = Record<string, string | string[]>;
function fields(values: Fields): [string, string][] {
  return Object.entries(values).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((each): [string, string] => [name, each]),
  );
}
const base = (code: string): Fields => ({
  intent: "save",
  code,
  label: "昨年度のお客様",
  kind: "yen",
  value: "500",
  minTotal: "3000",
  validFrom: "2026-12-01T09:00",
  validUntil: "2026-12-31T23:59",
  maxUses: "100",
  maxUsesPerEmail: "1",
});

async function post(values: Fields, cookie?: string, search = "") {
  return callRoute(
    action,
    formRequest(`/admin/coupons${search}`, fields(values), cookie ?? (await adminCookie())),
  );
}
const byCode = (code: string) => db().select().from(coupons).where(eq(coupons.code, code)).get();
const errorsOf = (result: { data: unknown }) => (result.data as SubmissionResult<string[]>).error ?? {};
const typedOf = (result: { data: unknown }) =>
  (result.data as SubmissionResult<string[]>).initialValue as Record<string, unknown>;

describe("クーポン管理: create, edit, 停止 / 再開", () => {
  it("creates a coupon from the form: the code normalised, dates read in Japan time, no contest ticked = every contest", async () => {
    const code = uniqueCode();
    const created = await post({ ...base(` ${code.toLowerCase()} `) });
    expect(created.status).toBe(303);
    expect(created.location).toBe("/admin/coupons");
    const row = byCode(code)!;
    expect(row).toMatchObject({
      label: "昨年度のお客様",
      kind: "yen",
      value: 500,
      minTotal: 3000,
      contestIds: null,
      maxUses: 100,
      maxUsesPerEmail: 1,
      disabledAt: null,
    });
    // 09:00 in Tokyo is 00:00 UTC.
    expect(row.validFrom?.toISOString()).toBe("2026-12-01T00:00:00.000Z");
    expect(row.validUntil?.toISOString()).toBe("2026-12-31T14:59:00.000Z");
  });

  it("takes full-width input as the customer's keyboard types it, and the ticked contests", async () => {
    const shop = seedContest();
    const code = uniqueCode("ＷＩＤＥ");
    const created = await post({
      ...base(code),
      kind: "percent",
      value: "１５",
      minTotal: "３,０００",
      validFrom: "",
      validUntil: "",
      maxUses: "",
      maxUsesPerEmail: "",
      contestIds: [String(shop.contestId)],
    });
    expect(created.status).toBe(303);
    const row = byCode(code.normalize("NFKC"))!;
    expect(row).toMatchObject({
      kind: "percent",
      value: 15,
      minTotal: 3000,
      contestIds: [shop.contestId],
      validFrom: null,
      validUntil: null,
      maxUses: null,
      maxUsesPerEmail: null,
    });
  });

  it("edits a coupon and stops and restarts it with plain posts", async () => {
    const code = uniqueCode();
    await post(base(code));
    const { id } = byCode(code)!;
    const edited = await post({ ...base(code), couponId: String(id), value: "800", label: "変更後" });
    expect(edited.status).toBe(303);
    expect(byCode(code)).toMatchObject({ value: 800, label: "変更後" });
    expect((await post({ intent: "disable", couponId: String(id) })).status).toBe(303);
    expect(byCode(code)?.disabledAt).toBeInstanceOf(Date);
    expect(listCoupons().find((coupon) => coupon.id === id)?.state).toBe("停止中");
    expect((await post({ intent: "enable", couponId: String(id) })).status).toBe(303);
    expect(byCode(code)?.disabledAt).toBeNull();
  });

  it("opens the form on a coupon with ?edit=", async () => {
    const code = uniqueCode();
    await post(base(code));
    const { id } = byCode(code)!;
    const request = new Request(`http://shop.test/admin/coupons?edit=${id}`, {
      headers: { Cookie: await adminCookie() },
    });
    const page = await callRoute(loader, request);
    expect((page.data as { editing: { code: string } }).editing.code).toBe(code);
  });
});

describe("クーポン管理: refusals keep what was typed", () => {
  const cases: [string, Fields, string, string][] = [
    [
      "a code in the wrong form",
      { code: "あ" },
      "code",
      "クーポンコードは半角英数字（- と _ も可）3〜32文字で入力してください",
    ],
    ["no code", { code: "" }, "code", "クーポンコードを入力してください"],
    ["no kind", { kind: "" }, "kind", "割引の種類（円 か %）を選んでください"],
    ["no value", { value: "" }, "value", "割引額を入力してください"],
    ["yen over 1,000,000", { value: "1000001" }, "value", "円の割引額は1〜1,000,000円で入力してください"],
    ["yen of 0", { value: "0" }, "value", "円の割引額は1〜1,000,000円で入力してください"],
    ["percent over 100", { kind: "percent", value: "101" }, "value", "%の割引は1〜100%で入力してください"],
    ["a negative minimum", { minTotal: "-1" }, "minTotal", "最低金額は0円以上で入力してください"],
    [
      "an end before the start",
      { validUntil: "2026-11-30T09:00" },
      "validUntil",
      "終了日時は開始日時より後にしてください",
    ],
    [
      "a date that is not one",
      { validFrom: "2026-02-30T09:00" },
      "validFrom",
      "開始日時を正しく入力してください（例: 2026-12-01T09:00）",
    ],
    // What JavaScript's Number() reads is not what the admin meant: 0x10 is no 16, 1e3 no 1,000.
    ["an amount written in hexadecimal", { value: "0x10" }, "value", "割引額は数字で入力してください"],
    [
      "a minimum written as a power of ten",
      { minTotal: "1e3" },
      "minTotal",
      "最低金額は数字で入力してください",
    ],
    ["a cap of Infinity", { maxUses: "Infinity" }, "maxUses", "利用上限（全体）は数字で入力してください"],
    ["a cap of 0", { maxUses: "0" }, "maxUses", "利用上限（全体）は1以上で入力してください"],
    [
      "a per-address cap that is not a number",
      { maxUsesPerEmail: "abc" },
      "maxUsesPerEmail",
      "利用上限（1アドレスあたり）は数字で入力してください",
    ],
  ];
  it.each(cases)(
    "%s: 400 with the message under its field, nothing written",
    async (_, change, field, message) => {
      const code = uniqueCode();
      const values = { ...base(code), ...change };
      const refused = await post(values);
      expect(refused.status).toBe(400);
      expect(errorsOf(refused)[field]).toEqual([message]);
      // Every value typed comes back to the form (an emptied field has none).
      expect(typedOf(refused)).toMatchObject(
        Object.fromEntries(Object.entries(values).filter(([, value]) => value !== "")),
      );
      expect(byCode(code)).toBeUndefined();
    },
  );

  it("a taken code: 409 「このクーポンコードはすでに使われています」, on create and on edit", async () => {
    const code = uniqueCode();
    await post(base(code));
    const again = await post({ ...base(code.toLowerCase()), label: "二つ目" });
    expect(again.status).toBe(409);
    expect(errorsOf(again).code).toEqual([COUPON_CODE_TAKEN_MESSAGE]);
    expect(typedOf(again)).toMatchObject({ label: "二つ目" });
    const other = uniqueCode();
    await post(base(other));
    const renamed = await post({ ...base(code), couponId: String(byCode(other)!.id) });
    expect(renamed.status).toBe(409);
    expect(errorsOf(renamed).code).toEqual([COUPON_CODE_TAKEN_MESSAGE]);
    expect(db().select().from(coupons).where(eq(coupons.code, code)).all()).toHaveLength(1);
  });

  it("a used coupon keeps its code, kind and value (orders name them); its dates and caps still change", async () => {
    const shop = seedContest();
    const { coupon } = await discountedOrder(shop);
    const id = String(coupon!.id);
    const same = {
      ...base(coupon!.code),
      couponId: id,
      kind: "percent",
      value: "10",
      validFrom: "",
      validUntil: "",
      minTotal: "0",
    };
    for (const change of [{ code: uniqueCode() }, { kind: "yen" }, { value: "20" }] as Fields[]) {
      const refused = await post({ ...same, ...change });
      expect(refused.status).toBe(409);
      expect(Object.values(errorsOf(refused)).flat()).toEqual([COUPON_LOCKED_MESSAGE]);
    }
    expect(byCode(coupon!.code)).toMatchObject({ kind: "percent", value: 10 });
    const capped = await post({ ...same, maxUses: "5" });
    expect(capped.status).toBe(303);
    expect(byCode(coupon!.code)?.maxUses).toBe(5);
    expect(listCoupons().find((each) => each.id === coupon!.id)?.locked).toBe(true);
  });
});

describe("クーポン管理: the contests a coupon is for", () => {
  it("refuses a contest that does not exist (409 under the field), and keeps one deleted since on an edit", async () => {
    const code = uniqueCode();
    const missing = await post({ ...base(code), contestIds: ["99999999"] });
    expect(missing.status).toBe(409);
    expect(errorsOf(missing).contestIds).toEqual([COUPON_CONTEST_UNKNOWN_MESSAGE]);
    expect(byCode(code)).toBeUndefined();
    const shop = seedContest();
    await post({ ...base(code), contestIds: [String(shop.contestId)] });
    db().delete(contests).where(eq(contests.id, shop.contestId)).run();
    const listed = listCoupons().find((coupon) => coupon.code === code)!;
    expect(listed.contests).toEqual([{ id: shop.contestId, name: null }]);
    // The edit form posts it back (drawn as 削除された大会): the coupon stays for that contest only.
    const edited = await post({
      ...base(code),
      couponId: String(listed.id),
      label: "削除後",
      contestIds: [String(shop.contestId)],
    });
    expect(edited.status).toBe(303);
    expect(byCode(code)).toMatchObject({ label: "削除後", contestIds: [shop.contestId] });
  });
});

describe("クーポン管理: the list's figures", () => {
  it("counts paid uses and their discount, not an expired konbini order's use, and live holds apart", async () => {
    const shop = seedContest();
    const first = await discountedOrder(shop);
    const coupon = first.coupon!;
    // A second order with the same coupon whose konbini voucher expired: its use is given back.
    const expired = await discountedOrder(shop);
    db()
      .update(couponUses)
      .set({ couponId: coupon.id })
      .where(eq(couponUses.orderId, expired.order.id))
      .run();
    db().update(orders).set({ paymentStatus: "expired" }).where(eq(orders.id, expired.order.id)).run();
    const now = Date.now();
    db()
      .insert(couponUses)
      .values([
        // A payment being made now, and one abandoned past the lease.
        {
          couponId: coupon.id,
          checkoutId: "live-hold",
          email: "a@example.jp",
          amount: 640,
          heldAt: new Date(now),
        },
        {
          couponId: coupon.id,
          checkoutId: "stale-hold",
          email: "b@example.jp",
          amount: 640,
          heldAt: new Date(now - COUPON_HOLD_LEASE_MS - 60_000),
        },
      ])
      .run();
    const entry = listCoupons().find((each) => each.id === coupon.id)!;
    expect(entry.figures).toEqual({ uses: 1, discountGiven: DISCOUNTED.discounts.coupon, holds: 1 });
    expect(entry.state).toBe("有効");
    expect(entry.contests).toBeNull();
  });

  it("says each state: 開始前, 期限切れ, 上限到達, 停止中, 有効", async () => {
    setClock(() => Date.parse("2026-12-15T00:00:00Z"));
    const make = (values: Partial<typeof coupons.$inferInsert>) =>
      db()
        .insert(coupons)
        .values({ code: uniqueCode(), kind: "yen", value: 100, ...values })
        .returning()
        .get().id;
    const ids = {
      開始前: make({ validFrom: new Date("2026-12-20T00:00:00Z") }),
      期限切れ: make({ validUntil: new Date("2026-12-15T00:00:00Z") }),
      上限到達: make({ maxUses: 1 }),
      停止中: make({ disabledAt: new Date("2026-12-01T00:00:00Z") }),
      有効: make({
        validFrom: new Date("2026-12-01T00:00:00Z"),
        validUntil: new Date("2026-12-16T00:00:00Z"),
      }),
    };
    db()
      .insert(couponUses)
      .values({
        couponId: ids.上限到達,
        checkoutId: "cap",
        email: "c@example.jp",
        heldAt: new Date("2026-12-15T00:00:00Z"),
      })
      .run();
    const states = new Map(listCoupons().map((coupon) => [coupon.id, coupon.state]));
    for (const [state, id] of Object.entries(ids)) expect(states.get(id), state).toBe(state);
  });
});

describe("*coupon created by a non-admin*", () => {
  it("turns away a visitor's and a customer's posts and writes nothing", async () => {
    const customer = await createUser(`coupon-customer-${Date.now()}@example.jp`, "password-1234");
    const cookies = {
      visitor: "",
      customer: await sessionCookie({ userId: customer.id }),
      "customer claiming the second factor": await adminCookie({ isAdmin: false }),
    };
    for (const [who, cookie] of Object.entries(cookies)) {
      const code = uniqueCode();
      const before = db().select().from(coupons).all().length;
      const refused = await callRoute(action, formRequest("/admin/coupons", fields(base(code)), cookie));
      expect(refused.status, who).toBe(302);
      expect(refused.location, who).toMatch(/^\/admin-login/);
      expect(byCode(code), who).toBeUndefined();
      expect(db().select().from(coupons).all().length, who).toBe(before);
    }
    const existing = uniqueCode();
    await post(base(existing));
    const stop = await callRoute(
      action,
      formRequest(
        "/admin/coupons",
        [
          ["intent", "disable"],
          ["couponId", String(byCode(existing)!.id)],
        ],
        "",
      ),
    );
    expect(stop.location).toMatch(/^\/admin-login/);
    expect(byCode(existing)?.disabledAt).toBeNull();
  });
});
