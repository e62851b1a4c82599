import { and, count, desc, eq, gt, gte, inArray, notInArray, sql } from "drizzle-orm";
import { SECURITY_PERIODS, type SecurityPeriod } from "~/lib/rules/security-periods";
import { now } from "../core/clock.server";
import { db } from "../db/client.server";
import { loginEvents, users } from "../db/schema";
import { API_TOKEN_OUTCOMES, UNKNOWN_ADDRESS } from "./login/login-events.server";
import { untrustedLockUntilSql } from "./login/login-policies.server";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "~/lib/rules/tokyo-date";

/** What the protections of this shop are, as the code enforces them; the dashboard reports them, it does not claim them. */
export type ProtectionSettings = {
  riskScoring: boolean;
  perIpRateLimit: boolean;
  adminSecondFactorRequired: boolean;
  adminIpAllowlist: boolean;
  accountLockout: boolean;
};

const FAILED = ["failure", "second-factor-failure"] as const;
const BLOCKED = ["locked", "blocked"] as const;
const HIGH_RISK = 70;

export type SecurityDashboard = ReturnType<typeof securityDashboard>;

/** The spec's security-dashboard entity, computed in SQL from the recorded login attempts. */
export function securityDashboard(
  period: SecurityPeriod,
  protections: ProtectionSettings,
  options: { eventsPage?: number } = {},
) {
  const at = now();
  const since = new Date(at.getTime() - SECURITY_PERIODS[period] * HOUR_MS);
  const inPeriod = gte(loginEvents.createdAt, since);
  // A script's requests with an API token are recorded beside the logins but are none.
  const loginsInPeriod = and(inPeriod, notInArray(loginEvents.outcome, [...API_TOKEN_OUTCOMES]));
  const database = db();

  const totals = database
    .select({
      total: count(),
      success: sql<number>`sum(case when ${loginEvents.outcome} = 'success' then 1 else 0 end)`,
      failed: sql<number>`sum(case when ${inArray(loginEvents.outcome, [...FAILED])} then 1 else 0 end)`,
      blocked: sql<number>`sum(case when ${inArray(loginEvents.outcome, [...BLOCKED])} then 1 else 0 end)`,
      highRisk: sql<number>`sum(case when ${loginEvents.riskScore} >= ${HIGH_RISK} then 1 else 0 end)`,
    })
    .from(loginEvents)
    .where(loginsInPeriod)
    .get() ?? { total: 0, success: 0, failed: 0, blocked: 0, highRisk: 0 };
  const tokenTotals = database
    .select({
      uses: sql<number>`sum(case when ${loginEvents.outcome} = 'api-token' then 1 else 0 end)`,
      refused: sql<number>`sum(case when ${loginEvents.outcome} = 'api-token-refused' then 1 else 0 end)`,
    })
    .from(loginEvents)
    .where(and(inPeriod, inArray(loginEvents.outcome, [...API_TOKEN_OUTCOMES])))
    .get();
  const apiTokens = { uses: tokenTotals?.uses ?? 0, refused: tokenTotals?.refused ?? 0 };
  const total = totals.total;
  const success = totals.success ?? 0;
  const failed = totals.failed ?? 0;
  const blocked = totals.blocked ?? 0;
  const highRisk = totals.highRisk ?? 0;

  const perIp = database
    .select({
      ip: loginEvents.ip,
      failures: sql<number>`sum(case when ${inArray(loginEvents.outcome, [...FAILED, ...BLOCKED])} then 1 else 0 end)`,
      successes: sql<number>`sum(case when ${loginEvents.outcome} = 'success' then 1 else 0 end)`,
      emails: sql<number>`count(distinct ${loginEvents.email})`,
    })
    .from(loginEvents)
    .where(loginsInPeriod)
    .groupBy(loginEvents.ip)
    .all()
    // Attempts without a known address are no one client: listing them as one would accuse nobody.
    .filter((row) => row.ip !== UNKNOWN_ADDRESS);
  const suspicious = perIp.filter((row) => row.failures >= 5 || row.emails >= 3);
  const trusted = perIp.filter((row) => row.successes > 0 && row.failures === 0);
  const blockedIPs = database
    .selectDistinct({ ip: loginEvents.ip })
    .from(loginEvents)
    .where(
      and(
        eq(loginEvents.outcome, "blocked"),
        gte(loginEvents.createdAt, new Date(at.getTime() - 15 * MINUTE_MS)),
      ),
    )
    .all()
    .map((row) => row.ip);

  const untrustedLock = untrustedLockUntilSql(at);
  const userTotals = database
    .select({
      total: count(),
      active: sql<number>`sum(case when ${users.lastLoginAt} >= ${since.getTime()} then 1 else 0 end)`,
      locked: sql<number>`sum(case when ${users.lockedUntil} > ${at.getTime()} or ${untrustedLock} is not null then 1 else 0 end)`,
      recent: sql<number>`sum(case when ${users.createdAt} >= ${at.getTime() - DAY_MS} then 1 else 0 end)`,
    })
    .from(users)
    .get() ?? { total: 0, active: 0, locked: 0, recent: 0 };

  const pageSize = 20;
  const page = Math.max(1, options.eventsPage ?? 1);
  const recentEvents = database
    .select()
    .from(loginEvents)
    .where(inPeriod)
    .orderBy(desc(loginEvents.createdAt), desc(loginEvents.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all()
    .map((event) => ({
      type:
        event.outcome === "success"
          ? "successful_login"
          : event.outcome === "failure" || event.outcome === "second-factor-failure"
            ? "failed_login"
            : event.outcome === "api-token"
              ? "api_token_use"
              : event.outcome === "api-token-refused"
                ? "api_token_refused"
                : "blocked_login",
      kind: event.kind,
      outcome: event.outcome,
      email: event.email,
      ip: event.ip,
      userAgent: event.userAgent,
      timestamp: event.createdAt.toISOString(),
      riskScore: event.riskScore,
    }));

  // Locked for every client (wrong codes: lockedUntil) or for the clients that never logged in to
  // the account (its run of wrong passwords), whichever ends later.
  const lockEnd = sql<number>`max(coalesce(${users.lockedUntil}, 0), coalesce(${untrustedLock}, 0))`;
  const lockedAccounts = database
    .select({
      id: users.id,
      email: users.email,
      lockedUntil: lockEnd.mapWith(users.lockedUntil),
      isAdmin: users.isAdmin,
    })
    .from(users)
    .where(gt(lockEnd, at.getTime()))
    .orderBy(desc(lockEnd))
    .limit(50)
    .all();

  const riskFactors: string[] = [];
  const recommendations: string[] = [];
  if (failed >= 5) riskFactors.push(`ログイン失敗が${failed}件あります`);
  if (suspicious.length > 0) riskFactors.push(`不審なIPアドレスが${suspicious.length}件あります`);
  if (highRisk > 0) riskFactors.push(`高リスクのログイン試行が${highRisk}件あります`);
  if ((userTotals.locked ?? 0) > 0) riskFactors.push(`ロック中のアカウントが${userTotals.locked}件あります`);
  if (blocked > 0) riskFactors.push(`ブロックされた試行が${blocked}件あります`);
  if (apiTokens.refused >= 5) riskFactors.push(`拒否されたAPIトークンの使用が${apiTokens.refused}件あります`);
  if (suspicious.length > 0)
    recommendations.push("不審なIPアドレスからの試行を確認し、必要に応じてサーバー側で遮断してください");
  if (failed >= 5)
    recommendations.push("失敗が続くアカウントの持ち主に連絡し、パスワードの変更を勧めてください");
  if (apiTokens.refused >= 5)
    recommendations.push(
      "APIトークンを使うスクリプトの設定を確認し、漏れたおそれのあるトークンは無効化してください",
    );
  if (!protections.adminIpAllowlist) recommendations.push("管理画面へのアクセス元IPの制限を検討してください");
  if (riskFactors.length === 0) recommendations.push("現在、特別な対応は必要ありません");

  const overallRiskLevel: "low" | "medium" | "high" =
    highRisk >= 5 || suspicious.length >= 3 || (blocked > 0 && failed >= 20)
      ? "high"
      : failed >= 5 || suspicious.length > 0 || (userTotals.locked ?? 0) > 0
        ? "medium"
        : "low";

  return {
    period,
    timestamp: at.toISOString(),
    riskAssessment: { overallRiskLevel, riskFactors, recommendations },
    loginSecurity: {
      totalLoginAttempts: total,
      successfulLogins: success,
      failedLogins: failed,
      successRate: total === 0 ? 0 : Math.round((success / total) * 1000) / 10,
      highRiskAttempts: highRisk,
      blockedAttempts: blocked,
    },
    /** Requests made with admin API tokens: in force, and refused (unknown, revoked, expired). */
    apiTokens,
    ipSecurity: {
      uniqueIPs: perIp.length,
      suspiciousIPs: suspicious.length,
      trustedIPs: trusted.length,
      blockedIPs,
    },
    userAccounts: {
      totalUsers: userTotals.total,
      activeUsers: userTotals.active ?? 0,
      lockedAccounts: userTotals.locked ?? 0,
      newRegistrations: userTotals.recent ?? 0,
    },
    recentEvents,
    recentEventsPage: page,
    lockedAccounts: lockedAccounts.map((row) => ({
      ...row,
      lockedUntil: row.lockedUntil?.toISOString() ?? null,
    })),
    systemHealth: {
      fraudDetectionActive: protections.riskScoring,
      rateLimitingActive: protections.perIpRateLimit,
      twoFactorActive: protections.adminSecondFactorRequired,
      ipRestrictionActive: protections.adminIpAllowlist,
      accountLockoutActive: protections.accountLockout,
    },
  };
}

/** Unlocks an account from the security page (a locked customer calling the shop, say). */
export function unlockAccount(userId: number): boolean {
  const result = db()
    .update(users)
    .set({ lockedUntil: null, failedLoginCount: 0, lastFailedLoginAt: null, secondFactorFailures: 0 })
    .where(eq(users.id, userId))
    .run();
  return result.changes > 0;
}
