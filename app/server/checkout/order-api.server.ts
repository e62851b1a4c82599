import { z } from "zod";
import { customerSchema } from "~/lib/schemas/order-schemas";
import { contestSlug } from "~/lib/rules/slug";
import { MAX_ORDER_ITEMS, ORIENTATION_LABELS } from "~/lib/rules/pricing";
import { findContestBySlug } from "../catalog/contests.server";
import { orderFormOptions } from "../catalog/pricing.server";
import { isOnSale } from "../catalog/publication.server";
import { now } from "../core/clock.server";
import { apiError, parseApiInput, readApiBody, apiJson } from "../http/json-api.server";
import { getCurrentUser } from "../auth/users.server";
import { retryAfterHeaders } from "../http/rate-limit.server";
import { commitSession, getSession, type ShopSession } from "../http/session.server";
import { handleOrderForm } from "./order-form.server";
import { pricedCheckout, saveCustomer } from "./steps.server";

/**
 * The spec's `POST /api/video/orders` onto the shop's order form and confirmation step. The spec's
 * client sends the contest by name, each item by category, athlete number, style and price, and
 * the customer; the shop's form names the athlete and the video format by id. The names are
 * turned into the form's fields here, then the order form's own handler (handleOrderForm: its
 * schema, its draft, its limit on new drafts, the server's prices) and the confirmation's
 * (customerSchema, saveCustomer: the e-mail code) run as they do for the screens. A `price` sent
 * is never read: the answer says what the server charges.
 */

const ORDER_API_MESSAGES = {
  contest: "大会名を指定してください",
  notOnSale: "この大会は現在ご注文を受け付けていません",
} as const;

/** The envelope only; the items are the order form's and the customer is the confirmation's. */
const orderRequestSchema = z.object({
  orderData: z.object(
    {
      contestName: z
        .string({
          required_error: ORDER_API_MESSAGES.contest,
          invalid_type_error: ORDER_API_MESSAGES.contest,
        })
        .trim()
        .min(1, ORDER_API_MESSAGES.contest)
        .max(200, ORDER_API_MESSAGES.contest),
      orderItems: z.array(z.unknown(), { invalid_type_error: "注文項目を選択してください" }).default([]),
    },
    { required_error: ORDER_API_MESSAGES.contest, invalid_type_error: ORDER_API_MESSAGES.contest },
  ),
  customerInfo: z.record(z.unknown(), {
    required_error: "メールアドレスを入力してください",
    invalid_type_error: "メールアドレスを入力してください",
  }),
});

const text = (value: unknown) =>
  typeof value === "string" || typeof value === "number" ? String(value).trim() : "";

/** The order form's fields for the spec's items: an athlete by number, a format by its name or 縦/横 (vertical/horizontal). */
function orderFormFields(contestId: number, orderItems: unknown[]): FormData {
  const options = orderFormOptions(contestId);
  const form = new FormData();
  form.set("intent", "next");
  // One past the form's limit, so the schema's own message refuses a longer list.
  orderItems.slice(0, MAX_ORDER_ITEMS + 1).forEach((raw, i) => {
    const item = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
    const category = text(item.category);
    const number = text(item.athleteNumber);
    const style = text(item.videoStyle);
    const athletes = options.athletes.filter((athlete) => String(athlete.number) === number);
    const athlete = athletes.find((candidate) => candidate.category === category) ?? athletes[0];
    const format = options.formats.find(
      (candidate) =>
        candidate.name === style ||
        candidate.orientation === style ||
        ORIENTATION_LABELS[candidate.orientation] === style,
    );
    form.set(`items[${i}].category`, category);
    form.set(`items[${i}].athleteId`, athlete ? String(athlete.id) : "");
    form.set(`items[${i}].formatId`, format ? String(format.id) : "");
  });
  return form;
}

/** The form's field names (items[0].athleteId) as the call's (orderData.orderItems.0.athleteNumber). */
function callFieldName(formName: string): string {
  if (formName === "" || formName === "items") return "orderData.orderItems";
  const match = /^items\[(\d+)\]\.?(\w*)$/.exec(formName);
  if (!match) return formName;
  const field = { category: "category", athleteId: "athleteNumber", formatId: "videoStyle" }[match[2] ?? ""];
  return `orderData.orderItems.${match[1]}${field ? `.${field}` : ""}`;
}

/**
 * Builds (or updates) the session's order draft from the spec's body and saves its customer, as
 * the order form and the confirmation step do; a Response is the refusal to answer.
 */
export async function placeOrderDraft(
  request: Request,
  session: ShopSession,
  body: Record<string, unknown>,
  userId: number | null,
) {
  const { orderData, customerInfo } = parseApiInput(orderRequestSchema, body);
  // The customer first, so a refused customer leaves the draft as it was.
  const customer = parseApiInput(
    customerSchema,
    { email: customerInfo.customerEmail, name: customerInfo.customerName, autoLogin: false },
    { email: "customerInfo.customerEmail", name: "customerInfo.customerName" },
  );
  const contest = findContestBySlug(contestSlug(orderData.contestName));
  if (!contest) throw apiError(404, "大会が見つかりません");
  if (!isOnSale(contest, now())) throw apiError(409, ORDER_API_MESSAGES.notOnSale);

  const outcome = handleOrderForm(
    session,
    contest,
    orderFormFields(contest.id, orderData.orderItems),
    request,
  );
  if (outcome.kind === "refused")
    throw apiError(429, outcome.reply.error?.[""]?.[0] ?? "しばらく時間をおいてから再度お試しください");
  if (outcome.kind === "invalid") {
    const fields: Record<string, string[]> = {};
    for (const [name, messages] of Object.entries(outcome.reply.error ?? {}))
      if (messages?.length) (fields[callFieldName(name)] ??= []).push(...messages);
    const first = Object.values(fields)[0]?.[0] ?? "入力内容をご確認ください";
    throw apiError(422, first, { fields });
  }
  const priced = pricedCheckout(session);
  if (!priced) throw apiError(409, "注文情報が見つかりません");
  const saved = await saveCustomer(request, priced.checkout, customer, userId);
  if (!saved.ok) throw apiError(saved.status, saved.message, { headers: retryAfterHeaders(saved) });
  return { priced, next: saved.next, customer };
}

/**
 * POST /api/video/orders (the customer's side of the address whose GET is the admin's order list):
 * the session's order draft, priced by the server, and where the checkout goes next.
 */
export async function postOrderDraft({ request }: { request: Request }): Promise<Response> {
  const body = await readApiBody(request);
  const session = await getSession(request);
  const user = await getCurrentUser(session);
  const { priced, next, customer } = await placeOrderDraft(request, session, body, user?.id ?? null);
  return apiJson(
    {
      orderData: {
        contestName: priced.contest.name,
        orderItems: priced.lines.map((line) => ({
          category: line.category,
          athleteNumber: line.athleteNumber,
          athleteName: line.athleteName,
          videoStyle: line.style,
          price: line.price,
          listPrice: line.listPrice,
          discounts: line.discounts,
        })),
        listTotal: priced.listTotal,
        discounts: priced.discounts,
        coupon: priced.coupon,
        totalAmount: priced.total,
      },
      customerInfo: { customerName: customer.name, customerEmail: customer.email.toLowerCase() },
      emailVerified: next === "/payment",
      redirectTo: next,
      message:
        next === "/payment"
          ? "ご注文内容を保存しました。お支払いへお進みください。"
          : `${customer.email.toLowerCase()} に6桁の認証コードを送信しました`,
    },
    { headers: { "Set-Cookie": await commitSession(session) } },
  );
}
