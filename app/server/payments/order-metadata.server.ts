import { z } from "zod";
import { ORIENTATIONS, type Orientation } from "~/lib/rules/pricing";
import { DISCOUNT_KINDS, type Discount } from "~/lib/rules/promotions";

/**
 * What an order needs, carried by its payment at the provider (Stripe's metadata), so an order
 * paid after the database's last snapshot can be made again from the payment alone, even when
 * its checkout is gone with the database (checkout/payments-after-snapshot.server.ts). The
 * password of an auto-login account is never sent: an order made again has no account made.
 *
 * Stripe's limits: 50 keys, a key at most 40 characters (no square brackets), a value at most 500.
 * The lines are one JSON text cut into numbered keys (order_lines_0, order_lines_1, …); an order
 * whose lines do not fit carries the lines that do and the count of all, so it reads as
 * incomplete and is listed for the admin instead of being made without some of its lines.
 */

/** An order line as the payment carries it: the checkout's priced line (db/schema.ts's PricedLine is this). */
export type CarriedLine = {
  category: string;
  athleteId: number;
  athleteNumber: number;
  athleteName: string;
  formatId: number;
  style: string;
  orientation: Orientation;
  /** What is paid for the line: its list price less its discounts. */
  price: number;
  listPrice: number;
  discounts: Discount[];
};

/** What the order needs: its contest, its customer, its priced lines. */
export type CarriedOrder = {
  contestId: number;
  customerEmail: string;
  customerName: string;
  pricedLines: CarriedLine[];
  /** The coupon code applied (its discount is on the lines), or null. */
  couponCode: string | null;
};

export const STRIPE_METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const;

/** This format's number: a later format is told apart by it, and an unknown one is not guessed at. */
export const ORDER_METADATA_FORMAT = "1";

const KEY = {
  checkout: "checkoutId",
  format: "order_format",
  contest: "order_contest_id",
  email: "order_customer_email",
  name: "order_customer_name",
  lineCount: "order_line_count",
  coupon: "order_coupon",
  check: "order_check",
} as const;
const LINES_KEY_PREFIX = "order_lines_";
/** Every key but the lines' is above; the lines get the rest of Stripe's 50. */
const LINE_CHUNKS = STRIPE_METADATA_LIMITS.keys - Object.keys(KEY).length;
const linesKey = (index: number) => `${LINES_KEY_PREFIX}${index}`;

/** Every key of this format, for an update to clear those it no longer uses (Stripe: a key set to ""). */
export const ORDER_METADATA_KEYS: readonly string[] = [
  ...Object.values(KEY),
  ...Array.from({ length: LINE_CHUNKS }, (_, index) => linesKey(index)),
];

/**
 * The lines as one JSON text: the strings (categories, styles, names) once each in `s`, each
 * line a tuple [category, athleteId, athleteNumber, name, formatId, style, orientation, price,
 * listPrice, discounts] with indexes into `s` and into ORIENTATIONS; a category or a style repeats
 * on most lines. A discount is [kind, name, amount] (indexes into DISCOUNT_KINDS and `s`).
 * Payments started before promotions carry the first eight only: no discount.
 */
function linesText(lines: CarriedLine[]): string {
  const strings: string[] = [];
  const at = (value: string) => {
    const index = strings.indexOf(value);
    return index >= 0 ? index : strings.push(value) - 1;
  };
  const tuples = lines.map((line) => [
    at(line.category),
    line.athleteId,
    line.athleteNumber,
    at(line.athleteName),
    line.formatId,
    at(line.style),
    ORIENTATIONS.indexOf(line.orientation),
    line.price,
    line.listPrice,
    line.discounts.map((d) => [DISCOUNT_KINDS.indexOf(d.kind), at(d.name), d.amount]),
  ]);
  return JSON.stringify({ s: strings, l: tuples });
}

/** Cut into values of at most 500 UTF-16 units, never between the two halves of a surrogate pair. */
function chunks(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + STRIPE_METADATA_LIMITS.valueLength, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

/**
 * A check over every value, so a value edited at the provider's dashboard (or a key lost) is
 * refused instead of making another order than the one paid for. FNV-1a: it catches edits and
 * accidents, not a forger, who could compute it too (only the shop's Stripe account can write it).
 */
function checkOf(values: string[]): string {
  let hash = 0x811c9dc5;
  const text = values.join("\u0000");
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

function checkedValues(metadata: Record<string, string>, lineChunks: number): string[] {
  const values = [KEY.checkout, KEY.format, KEY.contest, KEY.email, KEY.name, KEY.lineCount].map(
    (key) => metadata[key] ?? "",
  );
  // Only when there is one: payments started before coupons carry no such key, and their check stands.
  if (metadata[KEY.coupon]) values.push(`coupon:${metadata[KEY.coupon]}`);
  for (let i = 0; i < lineChunks; i++) values.push(metadata[linesKey(i)] ?? "");
  return values;
}

/**
 * The payment's metadata for the order of `checkoutId`. Lines that do not fit in the keys left
 * are left out from the last one back; `order_line_count` still counts them all.
 */
export function orderMetadata(checkoutId: string, order: CarriedOrder): Record<string, string> {
  // The address (254) and the name (100) fit a value by the customer form's own limits.
  const head: Record<string, string> = {
    [KEY.checkout]: checkoutId,
    [KEY.format]: ORDER_METADATA_FORMAT,
    [KEY.contest]: String(order.contestId),
    [KEY.email]: order.customerEmail,
    [KEY.name]: order.customerName,
    [KEY.lineCount]: String(order.pricedLines.length),
  };
  if (order.couponCode) head[KEY.coupon] = order.couponCode;
  let fitting = order.pricedLines.length;
  let pieces = chunks(linesText(order.pricedLines));
  while (pieces.length > LINE_CHUNKS) {
    // Each step drops at least one line; 50 lines at most, so this ends quickly.
    fitting = Math.min(fitting - 1, Math.floor((fitting * LINE_CHUNKS) / pieces.length));
    pieces = chunks(linesText(order.pricedLines.slice(0, fitting)));
  }
  const metadata: Record<string, string> = { ...head };
  pieces.forEach((piece, index) => (metadata[linesKey(index)] = piece));
  return withOrderCheck(metadata);
}

/** The metadata with its check over the values it holds (what orderMetadata ends with). */
export function withOrderCheck(metadata: Record<string, string>): Record<string, string> {
  return { ...metadata, [KEY.check]: checkOf(checkedValues(metadata, lineChunksOf(metadata))) };
}

/** How many lines' keys follow each other from order_lines_0. */
function lineChunksOf(metadata: Record<string, string>): number {
  let count = 0;
  while (metadata[linesKey(count)] !== undefined) count++;
  return count;
}

/**
 * For an update of an intent that may carry an earlier order: the new metadata, and every other
 * key of the format set to "", which Stripe takes as removing it (fewer lines, fewer keys).
 */
export function orderMetadataUpdate(checkoutId: string, order: CarriedOrder): Record<string, string> {
  const metadata = orderMetadata(checkoutId, order);
  const update: Record<string, string> = {};
  for (const key of ORDER_METADATA_KEYS) update[key] = metadata[key] ?? "";
  return update;
}

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const decimal = z
  .string()
  .regex(/^(0|[1-9]\d{0,15})$/)
  .transform(Number)
  .pipe(z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER));
const index = z.number().int().nonnegative();
const orientationIndex = index.max(ORIENTATIONS.length - 1);
const lineHead: [
  typeof index,
  typeof id,
  typeof index,
  typeof index,
  typeof id,
  typeof index,
  typeof index,
  typeof index,
] = [index, id, index, index, id, index, orientationIndex, index];
const discountTuple = z.tuple([index.max(DISCOUNT_KINDS.length - 1), index, index]);
const linesSchema = z
  .object({
    s: z.array(z.string()),
    l: z.array(z.union([z.tuple([...lineHead, index, z.array(discountTuple)]), z.tuple(lineHead)])),
  })
  .strict();
const headSchema = z.object({
  contestId: decimal.pipe(id),
  customerEmail: z.string().min(1).max(254).email(),
  customerName: z.string().min(1).max(200),
  lineCount: decimal.pipe(z.number().int().positive()),
});

export type OrderMetadataProblem = {
  /** none: the payment carries no order (made before this format, or not by the shop). */
  reason: "none" | "unknown_format" | "invalid" | "incomplete";
  /** Said to the admin, in Japanese. */
  message: string;
};

/** What a payment's metadata says its order is; never throws. */
export type CarriedOrderReading =
  { order: CarriedOrder; problem: null } | { order: null; problem: OrderMetadataProblem };

const invalid = (why: string): CarriedOrderReading => ({
  order: null,
  problem: {
    reason: "invalid",
    message: `決済に記録された注文の内容が壊れているか書き換えられています（${why}）`,
  },
});

/** Reads the order back from a payment's metadata, strictly: anything off is a problem, not a guess. */
export function readOrderMetadata(metadata: Record<string, string> | null | undefined): CarriedOrderReading {
  const format = metadata?.[KEY.format];
  if (!metadata || format === undefined)
    return {
      order: null,
      problem: {
        reason: "none",
        message:
          "決済に注文の内容が記録されていません（この仕組みより前の決済か、ショップ以外で作られた決済です）",
      },
    };
  if (format !== ORDER_METADATA_FORMAT)
    return {
      order: null,
      problem: {
        reason: "unknown_format",
        message: `決済の注文の記録形式（${format}）をこの版のショップは読めません`,
      },
    };
  const lineChunks = lineChunksOf(metadata);
  if (metadata[KEY.check] !== checkOf(checkedValues(metadata, lineChunks)))
    return invalid("照合値が一致しません");
  const head = headSchema.safeParse({
    contestId: metadata[KEY.contest],
    customerEmail: metadata[KEY.email],
    customerName: metadata[KEY.name],
    lineCount: metadata[KEY.lineCount],
  });
  if (!head.success) return invalid(`${head.error.issues[0]?.path.join(".")} が正しくありません`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Array.from({ length: lineChunks }, (_, i) => metadata[linesKey(i)]).join(""));
  } catch {
    return invalid("明細が読めません");
  }
  const lines = linesSchema.safeParse(parsed);
  if (!lines.success) return invalid("明細の形が正しくありません");
  const { s: strings, l: tuples } = lines.data;
  const pricedLines: CarriedLine[] = [];
  for (const tuple of tuples) {
    const [category, athleteId, athleteNumber, name, formatId, style, orientation, price] = tuple;
    const [categoryText, nameText, styleText] = [strings[category], strings[name], strings[style]];
    const direction = ORIENTATIONS[orientation];
    if (categoryText === undefined || nameText === undefined || styleText === undefined || !direction)
      return invalid("明細の文字列の番号が範囲外です");
    const discounts = tuple.length === 10 ? readDiscounts(tuple[9], strings) : [];
    if (!discounts) return invalid("明細の割引の文字列の番号が範囲外です");
    const listPrice = tuple.length === 10 ? tuple[8] : price;
    if (listPrice - discounts.reduce((sum, d) => sum + d.amount, 0) !== price)
      return invalid("明細の割引と金額が合いません");
    pricedLines.push({
      category: categoryText,
      athleteId,
      athleteNumber,
      athleteName: nameText,
      formatId,
      style: styleText,
      orientation: direction,
      price,
      listPrice,
      discounts,
    });
  }
  const { lineCount, contestId, customerEmail, customerName } = head.data;
  if (pricedLines.length > lineCount) return invalid("明細の数が記録された件数より多くなっています");
  if (pricedLines.length < lineCount)
    return {
      order: null,
      problem: {
        reason: "incomplete",
        message: `注文の明細 ${lineCount} 件のうち ${pricedLines.length} 件しか決済に記録できませんでした（明細が多く、決済の記録欄に収まりませんでした）`,
      },
    };
  const couponCode = metadata[KEY.coupon] || null;
  return { order: { contestId, customerEmail, customerName, pricedLines, couponCode }, problem: null };
}

function readDiscounts(tuples: [number, number, number][], strings: string[]): Discount[] | null {
  const discounts: Discount[] = [];
  for (const [kind, name, amount] of tuples) {
    const [kindName, text] = [DISCOUNT_KINDS[kind], strings[name]];
    if (kindName === undefined || text === undefined) return null;
    discounts.push({ kind: kindName, name: text, amount });
  }
  return discounts;
}
