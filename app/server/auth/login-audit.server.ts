import { pendingLoginOf } from "./login/session-login.server";
import { ADMIN_LOGIN_POLICY, CUSTOMER_LOGIN_POLICY } from "./login/login-policies.server";
import { recordLoginEvent } from "./login/login-events.server";
import type { SecondFactorResult } from "./second-factor/second-factor-result.server";
import type { ProtectionSettings } from "./security-dashboard.server";
import type { ShopSession } from "../http/session.server";

/** The protections as the code enforces them, for the security dashboard's system-health flags. */
export function protectionSettings(): ProtectionSettings {
  const policies = [CUSTOMER_LOGIN_POLICY, ADMIN_LOGIN_POLICY];
  return {
    // Every attempt is scored when recorded (login-events.server.ts).
    riskScoring: true,
    // On in every TRUST_PROXY mode: the server's edge always tells the client's address.
    perIpRateLimit: policies.every((policy) => policy.perIp.limit > 0),
    // The admin login has no path to a session that skips /admin-2fa-verify.
    adminSecondFactorRequired: true,
    // There is no allow-list of admin addresses; the dashboard says so.
    adminIpAllowlist: false,
    accountLockout: policies.every((policy) => policy.maxFailures > 0 && policy.lockMinutes > 0),
  };
}

/** Records the outcome of a login's second step, like every other login attempt. */
export function recordSecondFactorOutcome(
  request: Request,
  session: ShopSession,
  email: string,
  result: SecondFactorResult,
): void {
  recordLoginEvent({
    kind: "admin",
    email,
    userId: result.ok ? result.user.id : (pendingLoginOf(session)?.userId ?? null),
    // An attempt refused by the lock checked no code: recorded as such, not as a guess.
    outcome: result.ok
      ? "success"
      : result.reason === "locked" && !result.counted
        ? "locked"
        : "second-factor-failure",
    request,
  });
}
