import { db } from "./db/client.server";
import { loginEvents } from "./db/schema";
import { clientIp } from "./rate-limit.server";
import type { SecondFactorResult } from "./second-factor.server";
import type { ProtectionSettings } from "./security-dashboard.server";
import type { ShopSession } from "./session.server";

/** The protections as the code enforces them, for the security dashboard's system-health flags. */
export function protectionSettings(): ProtectionSettings {
  return {
    riskScoring: true,
    perIpRateLimit: true,
    adminSecondFactorRequired: true,
    adminIpAllowlist: false,
    accountLockout: true,
  };
}

/** Records the outcome of a login's second step. */
export function recordSecondFactorOutcome(request: Request, session: ShopSession, result: SecondFactorResult): void {
  const userId = result.ok ? result.user.id : (session.get("pendingLogin")?.userId ?? null);
  db()
    .insert(loginEvents)
    .values({
      kind: "admin",
      email: result.ok ? result.user.email : "",
      userId,
      ip: clientIp(request),
      userAgent: request.headers.get("User-Agent")?.slice(0, 300) ?? "",
      outcome: result.ok ? "success" : "second-factor-failure",
      riskScore: 0,
    })
    .run();
}
