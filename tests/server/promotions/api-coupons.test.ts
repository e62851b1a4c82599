import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as listRoute from "~/routes/api/admin/coupons";
import * as itemRoute from "~/routes/api/admin/coupons-item";
import * as switchRoute from "~/routes/api/admin/coupons-switch";
import * as checkoutCouponRoute from "~/routes/api/checkout/coupon";
import { db } from "~/server/db/client.server";
import { checkouts, coupons } from "~/server/db/schema";
import { COUPON_CODE_TAKEN_MESSAGE, COUPON_LOCKED_MESSAGE } from "~/server/promotions/coupon-admin.server";
import { COUPON_TRY_LIMITS } from "~/server/checkout/coupon.server";
import { adminWithToken, apiCall } from "../../helpers/api";
import { checkoutUntilConfirmed } from "../../helpers/checkout-flow";
import { discountedOrder } from "../../helpers/discounted-orders";
import { adminCookie, seedContest } from "../../helpers/shop";
import { smtpServerForThisFile } from "../../helpers/smtp-per-file";

/*
 * The coupon calls of docs/api.md: クーポン管理 for scripts (the screen's schema and rules), and
 * the confirmation page's coupon field for the session's own checkout.
 */

smtpServerForThisFile();

let n = 0;
const uniqueCode = () => `API${++n}${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
const body = (code: string) => ({
  code,
  label: "合唱部",
  kind: "percent",
  value: 10,
  minTotal: 0,
  validFrom: "2026-01-01T00:00:00Z",
  validUntil: "2036-01-01T00:00:00Z",
  contestIds: [],
  maxUses: 50,
  maxUsesPerEmail: 1,
});
type Answer = Record<string, unknown> & { id: number };

async function create(code: string, token: string) {
  const created = await apiCall(listRoute, "POST", "/api/admin/coupons", { token, json: body(code) });
  expect(created.status).toBe(201);
  return created.data as Answer;
}

describe("the admin's coupon calls", () => {
  it("creates, lists, reads, changes (only what the body names), stops and restarts a coupon", async () => {
    const { token } = adminWithToken("write");
    const code = uniqueCode();
    const created = await create(code.toLowerCase(), token);
    expect(created).toMatchObject({
      code,
      label: "合唱部",
      kind: "percent",
      value: 10,
      validFrom: "2026-01-01T00:00:00.000Z",
      validUntil: "2036-01-01T00:00:00.000Z",
      contests: null,
      maxUses: 50,
      maxUsesPerEmail: 1,
      disabledAt: null,
      state: "有効",
      uses: 0,
      discountGiven: 0,
      holds: 0,
      locked: false,
    });
    const id = String(created.id);
    const listed = await apiCall(listRoute, "GET", "/api/admin/coupons", { token });
    expect((listed.data as { coupons: Answer[] }).coupons.find((c) => c.id === created.id)).toEqual(created);
    const patched = await apiCall(itemRoute, "PATCH", `/api/admin/coupons/${id}`, {
      token,
      params: { id },
      json: { maxUses: null, validFrom: "2026-12-01T09:00" },
    });
    expect(patched.status).toBe(200);
    expect(patched.data).toMatchObject({
      code,
      value: 10,
      maxUses: null,
      // A datetime-local value is Japan time, as on the screen.
      validFrom: "2026-12-01T00:00:00.000Z",
    });
    const stopped = await apiCall(switchRoute, "POST", `/api/admin/coupons/${id}/disable`, {
      token,
      params: { id },
    });
    expect(stopped.data).toMatchObject({ state: "停止中" });
    expect((stopped.data as Answer).disabledAt).toEqual(expect.any(String));
    const restarted = await apiCall(switchRoute, "POST", `/api/admin/coupons/${id}/enable`, {
      token,
      params: { id },
    });
    expect(restarted.data).toMatchObject({ disabledAt: null });
  });

  it("refuses bad input (422 per field), a taken code and a used coupon's discount (409), an unknown id (404)", async () => {
    const { token } = adminWithToken("write");
    const bad = await apiCall(listRoute, "POST", "/api/admin/coupons", {
      token,
      json: { ...body(uniqueCode()), kind: "yen", value: 2_000_000, validUntil: "2025-01-01T00:00:00Z" },
    });
    expect(bad.status).toBe(422);
    expect((bad.data as { fields: Record<string, string[]> }).fields).toEqual({
      value: ["円の割引額は1〜1,000,000円で入力してください"],
      validUntil: ["終了日時は開始日時より後にしてください"],
    });
    const code = uniqueCode();
    await create(code, token);
    const taken = await apiCall(listRoute, "POST", "/api/admin/coupons", { token, json: body(code) });
    expect(taken.status).toBe(409);
    expect(taken.data).toMatchObject({
      message: COUPON_CODE_TAKEN_MESSAGE,
      fields: { code: [COUPON_CODE_TAKEN_MESSAGE] },
    });
    const { coupon } = await discountedOrder(seedContest());
    const id = String(coupon!.id);
    const locked = await apiCall(itemRoute, "PATCH", `/api/admin/coupons/${id}`, {
      token,
      params: { id },
      json: { value: 50 },
    });
    expect(locked.status).toBe(409);
    expect(locked.data).toMatchObject({ message: COUPON_LOCKED_MESSAGE });
    const used = await apiCall(itemRoute, "GET", `/api/admin/coupons/${id}`, { token, params: { id } });
    expect(used.data).toMatchObject({ uses: 1, discountGiven: 640, locked: true, value: 10 });
    const missing = await apiCall(itemRoute, "PATCH", "/api/admin/coupons/999999", {
      token,
      params: { id: "999999" },
      json: { value: 5 },
    });
    expect(missing.status).toBe(404);
  });

  it("*coupon created by a non-admin* through the API: 401 for a visitor and a customer, 403 for a read-only token, nothing written", async () => {
    const { token: readToken } = adminWithToken("read");
    const callers = {
      visitor: {},
      "customer claiming the second factor": { cookie: await adminCookie({ isAdmin: false }) },
      "read-only token": { token: readToken },
    };
    for (const [who, caller] of Object.entries(callers)) {
      const code = uniqueCode();
      const refused = await apiCall(listRoute, "POST", "/api/admin/coupons", { ...caller, json: body(code) });
      expect(refused.status, who).toBe(who === "read-only token" ? 403 : 401);
      expect(db().select().from(coupons).where(eq(coupons.code, code)).get(), who).toBeUndefined();
    }
    expect((await apiCall(listRoute, "GET", "/api/admin/coupons", {})).status).toBe(401);
  });
});

describe("POST / DELETE /api/checkout/coupon", () => {
  it("applies a code to the session's checkout and answers the new prices; DELETE takes it off", async () => {
    const shop = seedContest();
    const { token } = adminWithToken("write");
    const code = uniqueCode();
    await create(code, token);
    const { cookie } = await checkoutUntilConfirmed(shop, [
      { category: "A部門", athleteId: shop.onSale.id, formatId: shop.vertical.id },
    ]);
    const applied = await apiCall(checkoutCouponRoute, "POST", "/api/checkout/coupon", {
      cookie,
      json: { code: code.toLowerCase() },
    });
    expect(applied.status).toBe(200);
    expect(applied.data).toEqual({
      listTotal: 3000,
      total: 2700,
      discounts: [{ kind: "coupon", name: `クーポン（${code}）`, amount: 300 }],
      coupon: { code, couponId: expect.any(Number), applied: true, message: null },
    });
    const removed = await apiCall(checkoutCouponRoute, "DELETE", "/api/checkout/coupon", { cookie });
    expect(removed.data).toMatchObject({ listTotal: 3000, total: 3000, discounts: [], coupon: null });
  });

  it("says why a code is refused (400), limits tries (429 with Retry-After), and needs a checkout (409)", async () => {
    const shop = seedContest();
    const { token } = adminWithToken("write");
    const code = uniqueCode();
    const created = await create(code, token);
    db()
      .update(coupons)
      .set({ validUntil: new Date(Date.now() - 1000), validFrom: null })
      .where(eq(coupons.id, created.id))
      .run();
    const { cookie } = await checkoutUntilConfirmed(shop, [
      { category: "A部門", athleteId: shop.onSale.id, formatId: shop.vertical.id },
    ]);
    const expired = await apiCall(checkoutCouponRoute, "POST", "/api/checkout/coupon", {
      cookie,
      json: { code },
      ip: "198.51.100.91",
    });
    expect(expired.status).toBe(400);
    expect((expired.data as { message: string }).message).toMatch(/^期限切れ：/);
    const unknown = await apiCall(checkoutCouponRoute, "POST", "/api/checkout/coupon", {
      cookie,
      json: { code: "NO-SUCH-CODE" },
      ip: "198.51.100.91",
    });
    expect(unknown.data).toMatchObject({
      message: "このクーポンコードはお使いいただけません。入力内容をご確認ください",
    });
    let last = unknown;
    for (let i = 2; i <= COUPON_TRY_LIMITS.perCheckout; i++)
      last = await apiCall(checkoutCouponRoute, "POST", "/api/checkout/coupon", {
        cookie,
        json: { code: "NO-SUCH-CODE" },
        ip: "198.51.100.91",
      });
    expect(last.status).toBe(429);
    expect(Number(last.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(
      db()
        .select()
        .from(checkouts)
        .all()
        .every((checkout) => checkout.couponCode !== code),
    ).toBe(true);
    const none = await apiCall(checkoutCouponRoute, "POST", "/api/checkout/coupon", { json: { code } });
    expect(none.status).toBe(409);
  });
});
