import { eq } from "drizzle-orm";
import { db } from "./db/client.server";
import { users } from "./db/schema";
import { env } from "./core/env.server";
import { startOutboxRetryLoop } from "./mail/outbox.server";
import { hashPassword } from "./auth/password.server";
import { recoverUnrecordedPayments } from "./checkout/payment-recovery.server";

/**
 * Runs once when the server build is loaded: validates configuration (a bad value
 * stops start-up naming the variable), opens and migrates the database, and creates
 * the first admin from ADMIN_EMAIL / ADMIN_PASSWORD when the shop has none, makes the
 * orders of payments that succeeded while their order was never written, and starts the
 * loop that retries mail the SMTP server could not take.
 */
export async function startUp(): Promise<void> {
  const config = env();
  const database = db();
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    const email = config.ADMIN_EMAIL.toLowerCase();
    const anyAdmin = database.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).get();
    if (!anyAdmin) {
      const passwordHash = await hashPassword(config.ADMIN_PASSWORD);
      database
        .insert(users)
        .values({ email, name: "管理者", passwordHash, isAdmin: true })
        .onConflictDoUpdate({ target: users.email, set: { isAdmin: true, passwordHash } })
        .run();
      console.log(`[startup] 管理者アカウントを作成しました: ${email}`);
    }
  }
  // In the background: with Stripe this asks the network, and the shop should answer meanwhile.
  void recoverUnrecordedPayments().catch((error: unknown) =>
    console.error("[payments] reconciliation failed", error),
  );
  startOutboxRetryLoop();
}
