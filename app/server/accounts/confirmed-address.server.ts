import { eq } from "drizzle-orm";
import { db, type Db, type Tx } from "../db/client.server";
import { users } from "../db/schema";
import { dropMailLinks } from "./mail-links.server";

/**
 * The account's address when the shop knows it is the account holder's: confirmed at
 * registration (by its code) or later by a mailed link. An account the checkout's auto-login
 * made (`addressUnconfirmed`) has none until then. The checkout skips its e-mail code for it.
 */
export function confirmedAddressOf(userId: number): string | null {
  const user = db()
    .select({ email: users.email, addressUnconfirmed: users.addressUnconfirmed })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  return user && !user.addressUnconfirmed ? user.email : null;
}

/**
 * The address is confirmed (the link of holdEarlierOrders, or a password reset, which also
 * came by mail): every order with the address belongs to the account from now on.
 */
export function confirmAddress(userId: number, tx: Tx | Db = db()): void {
  tx.update(users).set({ addressUnconfirmed: false }).where(eq(users.id, userId)).run();
  dropMailLinks("address-confirmation", userId, tx);
}
