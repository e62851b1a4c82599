import { describe, expect, it } from "vitest";
import { setClock } from "~/server/core/clock.server";
import { db } from "~/server/db/client.server";
import { loginEvents, users } from "~/server/db/schema";
import { protectionSettings } from "~/server/auth/login-audit.server";
import { securityDashboard, unlockAccount } from "~/server/auth/security-dashboard.server";

describe("security dashboard", () => {
  it("computes the spec's figures from the recorded login attempts of the period", () => {
    const at = Date.UTC(2025, 6, 1, 12);
    setClock(() => at);
    const hour = 3600_000;
    const event = (
      outcome: "success" | "failure" | "locked" | "blocked",
      ip: string,
      email: string,
      minutesAgo: number,
      riskScore = 0,
    ) =>
      db()
        .insert(loginEvents)
        .values({
          kind: "customer",
          outcome,
          ip,
          email,
          riskScore,
          createdAt: new Date(at - minutesAgo * 60_000),
        })
        .run();
    event("success", "10.0.0.1", "a@example.jp", 10);
    event("success", "10.0.0.1", "a@example.jp", 20);
    for (let i = 0; i < 5; i++) event("failure", "10.0.0.2", `victim${i}@example.jp`, 5 + i, 80);
    event("blocked", "10.0.0.2", "victim9@example.jp", 1, 90);
    event("locked", "10.0.0.3", "b@example.jp", 30);
    event("failure", "10.0.0.4", "old@example.jp", 25 * 60); // outside 24 h
    db()
      .insert(users)
      .values({
        email: "locked@example.jp",
        passwordHash: "x",
        lockedUntil: new Date(at + 10 * 60_000),
        createdAt: new Date(at - 2 * hour),
        lastLoginAt: new Date(at - hour),
      })
      .run();
    db()
      .insert(users)
      .values({ email: "old-user@example.jp", passwordHash: "x", createdAt: new Date(at - 48 * hour) })
      .run();

    const dashboard = securityDashboard("24h", protectionSettings());
    expect(dashboard.loginSecurity).toEqual({
      totalLoginAttempts: 9,
      successfulLogins: 2,
      failedLogins: 5,
      successRate: 22.2,
      highRiskAttempts: 6,
      blockedAttempts: 2,
    });
    expect(dashboard.ipSecurity).toEqual({
      uniqueIPs: 3,
      suspiciousIPs: 1,
      trustedIPs: 1,
      blockedIPs: ["10.0.0.2"],
    });
    expect(dashboard.userAccounts).toEqual({
      totalUsers: 2,
      activeUsers: 1,
      lockedAccounts: 1,
      newRegistrations: 1,
    });
    expect(dashboard.riskAssessment.overallRiskLevel).toBe("high");
    expect(dashboard.recentEvents[0]).toMatchObject({ type: "blocked_login", ip: "10.0.0.2", riskScore: 90 });
    expect(dashboard.recentEvents.filter((e) => e.type === "successful_login")).toHaveLength(2);

    const week = securityDashboard("7d", protectionSettings());
    expect(week.loginSecurity.totalLoginAttempts).toBe(10);

    const locked = dashboard.lockedAccounts[0];
    expect(locked?.email).toBe("locked@example.jp");
    expect(unlockAccount(locked!.id)).toBe(true);
    expect(securityDashboard("24h", protectionSettings()).userAccounts.lockedAccounts).toBe(0);
  });

  it("is low risk with nothing to report", () => {
    setClock(() => Date.UTC(2030, 0, 1));
    expect(securityDashboard("24h", protectionSettings()).riskAssessment.overallRiskLevel).toBe("low");
  });

  it("attempts without a known address (TRUST_PROXY=none) are not listed as one suspicious address", () => {
    const at = Date.UTC(2025, 8, 1, 12);
    setClock(() => at);
    for (let i = 0; i < 6; i++)
      db()
        .insert(loginEvents)
        .values({
          kind: "customer",
          outcome: "failure",
          ip: "unknown",
          email: `nobody${i}@example.jp`,
          riskScore: 0,
          createdAt: new Date(at - 60_000),
        })
        .run();
    const dashboard = securityDashboard("24h", protectionSettings());
    expect(dashboard.loginSecurity.failedLogins).toBeGreaterThanOrEqual(6);
    expect(dashboard.ipSecurity.suspiciousIPs).toBe(0);
    expect(dashboard.ipSecurity.uniqueIPs).toBe(0);
  });
});
