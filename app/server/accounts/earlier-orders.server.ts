import { and, count, eq, isNull, ne, or } from "drizzle-orm";
import { siteUrl } from "../core/site-url.server";
import { db, type Tx } from "../db/client.server";
import { orders, users } from "../db/schema";
import { earlierOrdersMail } from "../mail/templates/earlier-orders.server";
import { queueMail } from "../mail/outbox.server";
import { confirmAddress } from "./confirmed-address.server";
import { checkMailLink, issueMailLink, takeMailLink } from "./mail-links.server";

/*
 * An account's earlier orders: those placed with its address before it existed, or as a guest.
 * An account the checkout's auto-login made sees them in its purchase history only once a mailed
 * link confirms the address (orders/customer/purchase-history.server.ts reads that flag).
 */

/** Orders with the account's address that are not its own: placed before it existed, as a guest. */
function earlierOrders(user: { id: number; email: string }) {
  return and(eq(orders.customerEmail, user.email), or(isNull(orders.userId), ne(orders.userId, user.id)));
}

/**
 * The checkout's auto-login has just made this account (inside the order's transaction): its
 * earlier orders wait for the address, and when there are any, a mail with a link to confirm
 * it is queued. Returns the mail's outbox id, or null when there is nothing to join.
 */
export function holdEarlierOrders(tx: Tx, user: { id: number; email: string; name: string }): number | null {
  tx.update(users).set({ addressUnconfirmed: true }).where(eq(users.id, user.id)).run();
  const earlier = tx.select({ total: count() }).from(orders).where(earlierOrders(user)).get()?.total ?? 0;
  if (earlier === 0) return null;
  const { token, expiresAt } = issueMailLink("address-confirmation", user.id, tx);
  return queueMail(
    {
      to: user.email,
      dedupeKey: `address-confirmation:${user.id}`,
      mail: earlierOrdersMail({
        name: user.name,
        orderCount: earlier,
        link: siteUrl(`/account/earlier-orders?token=${token}`),
        expiresAt,
      }),
    },
    tx,
  );
}

/** How many orders the confirmation would add to the account's purchase history. */
export function earlierOrderCount(user: { id: number; email: string }): number {
  return db().select({ total: count() }).from(orders).where(earlierOrders(user)).get()?.total ?? 0;
}

export const EARLIER_ORDERS_MESSAGES = {
  unknown: "このリンクは無効です。メールのリンクを最後まで正しく開いたかご確認ください。",
  expired: "このリンクは有効期限が切れています。",
  used: "このリンクはすでに使用されています。",
  otherAccount:
    "このリンクは、ログイン中のアカウントのものではありません。メールを受け取ったアドレスのアカウントでログインしてください。",
  joined: "以前のご注文をアカウントに追加しました",
} as const;

export type EarlierOrdersLink =
  { ok: true; orderCount: number } | { ok: false; status: 400 | 403; message: string };

/**
 * The link of the earlier-orders mail, opened by a logged-in user: it works only for the account
 * it was made for, so the owner of the mailbox cannot add their orders to an account someone
 * else made under their address by opening it, and the account's maker cannot without the mail.
 */
export function checkEarlierOrdersLink(
  user: { id: number; email: string },
  token: unknown,
): EarlierOrdersLink {
  const link = checkMailLink("address-confirmation", token);
  if (!link.ok) return { ok: false, status: 400, message: EARLIER_ORDERS_MESSAGES[link.problem] };
  if (link.userId !== user.id)
    return { ok: false, status: 403, message: EARLIER_ORDERS_MESSAGES.otherAccount };
  return { ok: true, orderCount: earlierOrderCount(user) };
}

/** Uses the link (once) and confirms the address: the earlier orders join the account. */
export function joinEarlierOrders(user: { id: number; email: string }, token: unknown): EarlierOrdersLink {
  const checked = checkEarlierOrdersLink(user, token);
  if (!checked.ok) return checked;
  return db().transaction(
    (tx) => {
      const taken = takeMailLink("address-confirmation", token, tx);
      if (!taken.ok)
        return { ok: false as const, status: 400 as const, message: EARLIER_ORDERS_MESSAGES[taken.problem] };
      confirmAddress(user.id, tx);
      return checked;
    },
    { behavior: "immediate" },
  );
}
