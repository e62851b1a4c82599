import { asc, eq, inArray, sql } from "drizzle-orm";
import type { CouponValues } from "~/lib/schemas/coupon-schemas";
import { now } from "../core/clock.server";
import { db, type Tx } from "../db/client.server";
import { contests, coupons, couponUses } from "../db/schema";
import { COUPON_HOLD_LEASE_MS, type Coupon } from "./coupons.server";

/**
 * クーポン管理 (the screen and the JSON calls): the shop's coupons with what each has given, and
 * creating, changing, stopping and restarting one. Whether a coupon applies to a checkout is
 * coupons.server.ts's; this module only keeps the coupons themselves.
 */

export const COUPON_STATES = ["有効", "期限切れ", "開始前", "停止中", "上限到達"] as const;
export type CouponState = (typeof COUPON_STATES)[number];

/** What a coupon has given: paid uses (an expired konbini voucher's is given back), their discount, and holds of payments being made. */
export type CouponFigures = { uses: number; discountGiven: number; holds: number };

export type CouponListEntry = Coupon & {
  state: CouponState;
  figures: CouponFigures;
  /** The contests it is for, by name (a deleted contest as such); null: every contest. */
  contests: { id: number; name: string | null }[] | null;
  /** Used at least once (held or paid): its code, kind and value can no longer change. */
  locked: boolean;
};

export const COUPON_CODE_TAKEN_MESSAGE = "このクーポンコードはすでに使われています";
export const COUPON_LOCKED_MESSAGE =
  "このクーポンはすでに使われているため、コード・割引の種類・割引額は変更できません（注文に記録されています）";
export const COUPON_NOT_FOUND_MESSAGE = "クーポンが見つかりません";

/** The state the list shows, at `at`: a stop first, then the dates, then the cap on uses. */
export function couponState(coupon: Coupon, figures: CouponFigures, at: Date): CouponState {
  if (coupon.disabledAt) return "停止中";
  if (coupon.validFrom && at < coupon.validFrom) return "開始前";
  if (coupon.validUntil && at >= coupon.validUntil) return "期限切れ";
  if (coupon.maxUses !== null && figures.uses + figures.holds >= coupon.maxUses) return "上限到達";
  return "有効";
}

/** Every coupon's figures, in one query: uses with an order (not an expired one), their discount, and live holds. */
function figuresByCoupon(at: Date): Map<number, CouponFigures & { rows: number }> {
  const leaseStart = at.getTime() - COUPON_HOLD_LEASE_MS;
  const counted = sql`(${couponUses.orderId} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = ${couponUses.orderId} AND o.payment_status = 'expired'))`;
  const rows = db()
    .select({
      couponId: couponUses.couponId,
      uses: sql<number>`coalesce(sum(${counted}), 0)`,
      discountGiven: sql<number>`coalesce(sum(CASE WHEN ${counted} THEN ${couponUses.amount} ELSE 0 END), 0)`,
      holds: sql<number>`coalesce(sum(${couponUses.orderId} IS NULL AND ${couponUses.usedAt} IS NULL AND ${couponUses.heldAt} >= ${leaseStart}), 0)`,
      rows: sql<number>`count(*)`,
    })
    .from(couponUses)
    .groupBy(couponUses.couponId)
    .all();
  return new Map(
    rows.map((row) => [
      row.couponId,
      {
        uses: Number(row.uses),
        discountGiven: Number(row.discountGiven),
        holds: Number(row.holds),
        rows: Number(row.rows),
      },
    ]),
  );
}

/** The contests a coupon may be limited to (the form's checkboxes), in the admin list's order. */
export function couponContestChoices(): { id: number; name: string }[] {
  return db().select({ id: contests.id, name: contests.name }).from(contests).orderBy(asc(contests.id)).all();
}

/** クーポン管理's list: newest first, each with its state and figures now. */
export function listCoupons(): CouponListEntry[] {
  const at = now();
  const figures = figuresByCoupon(at);
  const names = new Map(couponContestChoices().map((contest) => [contest.id, contest.name]));
  return db()
    .select()
    .from(coupons)
    .orderBy(sql`${coupons.id} DESC`)
    .all()
    .map((coupon) => {
      const own = figures.get(coupon.id) ?? { uses: 0, discountGiven: 0, holds: 0, rows: 0 };
      const { rows, ...counted } = own;
      return {
        ...coupon,
        figures: counted,
        state: couponState(coupon, counted, at),
        contests: coupon.contestIds?.map((id) => ({ id, name: names.get(id) ?? null })) ?? null,
        locked: rows > 0,
      };
    });
}

export function couponEntry(id: number): CouponListEntry | null {
  return listCoupons().find((coupon) => coupon.id === id) ?? null;
}

export type CouponWriteResult =
  | { ok: true; coupon: Coupon }
  | { ok: false; status: 404 | 409; field: "code" | "kind" | "value" | "contestIds" | null; message: string };

function codeTaken(reader: Pick<Tx, "select">, code: string, exceptId: number | null): boolean {
  const holder = reader.select({ id: coupons.id }).from(coupons).where(eq(coupons.code, code)).get();
  return holder !== undefined && holder.id !== exceptId;
}

export const COUPON_CONTEST_UNKNOWN_MESSAGE =
  "選んだ大会が見つかりません。画面を読み込み直してから選んでください";

/**
 * Whether the coupon names a contest that does not exist and was not already its own (a contest
 * deleted since stays on the coupon: dropping it would open the coupon to every contest).
 */
function unknownContest(reader: Pick<Tx, "select">, ids: number[] | null, kept: number[] | null): boolean {
  const added = (ids ?? []).filter((id) => !(kept ?? []).includes(id));
  if (added.length === 0) return false;
  const found = reader.select({ id: contests.id }).from(contests).where(inArray(contests.id, added)).all();
  return found.length !== added.length;
}

function row(values: CouponValues) {
  const { code, label, kind, value, minTotal, validFrom, validUntil, contestIds, maxUses, maxUsesPerEmail } =
    values;
  return { code, label, kind, value, minTotal, validFrom, validUntil, contestIds, maxUses, maxUsesPerEmail };
}

/** A new coupon, unless its code is taken (the unique index backs the check). */
export function createCoupon(values: CouponValues): CouponWriteResult {
  return db().transaction(
    (tx) => {
      if (codeTaken(tx, values.code, null))
        return { ok: false, status: 409, field: "code", message: COUPON_CODE_TAKEN_MESSAGE };
      if (unknownContest(tx, values.contestIds, null))
        return { ok: false, status: 409, field: "contestIds", message: COUPON_CONTEST_UNKNOWN_MESSAGE };
      const coupon = tx.insert(coupons).values(row(values)).returning().get();
      return { ok: true, coupon };
    },
    { behavior: "immediate" },
  );
}

/**
 * Changes a coupon. Once used (a hold or an order), its code, kind and value stay: orders name
 * the code and were priced with them. Everything else (dates, contests, caps, minimum, label)
 * may change; the next checkout step checks the coupon again.
 */
export function updateCoupon(id: number, values: CouponValues): CouponWriteResult {
  return db().transaction(
    (tx) => {
      const coupon = tx.select().from(coupons).where(eq(coupons.id, id)).get();
      if (!coupon) return { ok: false, status: 404, field: null, message: COUPON_NOT_FOUND_MESSAGE };
      const used = tx
        .select({ id: couponUses.id })
        .from(couponUses)
        .where(eq(couponUses.couponId, id))
        .limit(1)
        .get();
      if (used) {
        const changed = (["code", "kind", "value"] as const).find((field) => coupon[field] !== values[field]);
        if (changed) return { ok: false, status: 409, field: changed, message: COUPON_LOCKED_MESSAGE };
      }
      if (codeTaken(tx, values.code, id))
        return { ok: false, status: 409, field: "code", message: COUPON_CODE_TAKEN_MESSAGE };
      if (unknownContest(tx, values.contestIds, coupon.contestIds))
        return { ok: false, status: 409, field: "contestIds", message: COUPON_CONTEST_UNKNOWN_MESSAGE };
      const updated = tx
        .update(coupons)
        .set({ ...row(values), updatedAt: now() })
        .where(eq(coupons.id, id))
        .returning()
        .get();
      return { ok: true, coupon: updated };
    },
    { behavior: "immediate" },
  );
}

/** 停止 (no checkout may use it from now; orders already made keep theirs) or 再開. */
export function setCouponDisabled(id: number, disabled: boolean): Coupon | null {
  const at = now();
  return (
    db()
      .update(coupons)
      .set({
        disabledAt: disabled ? sql`coalesce(${coupons.disabledAt}, ${at.getTime()})` : null,
        updatedAt: at,
      })
      .where(eq(coupons.id, id))
      .returning()
      .get() ?? null
  );
}
