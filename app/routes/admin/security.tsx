import { parseForm } from "~/lib/schemas/parse-form";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { CURRENT_TAB_IN_VIEW, useCurrentTabInView } from "~/lib/hooks/use-current-tab-in-view";
import { formatDateTime } from "~/lib/rules/format";
import { requireAdminPage } from "~/server/auth/admin-session.server";
import { protectionSettings } from "~/server/auth/login-audit.server";
import { parsePeriod, SECURITY_PERIODS } from "~/lib/rules/security-periods";
import { securityDashboard, unlockAccount } from "~/server/auth/security-dashboard.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { readForm } from "~/server/http/form.server";
import { pageNumber, positiveId } from "~/lib/rules/params";
import { apiTokenCreateSchema, apiTokenRevokeSchema } from "~/lib/schemas/api-token-schemas";
import { createApiToken, listApiTokens, revokeApiToken } from "~/server/auth/tokens/api-tokens.server";
import { now } from "~/server/core/clock.server";
import { ApiTokensPanel } from "./ApiTokensPanel";
import { BackupPanel, BackupWarning } from "./BackupPanel";
import { backupOverview } from "~/server/backups/backup-overview.server";
import { diskOverview } from "~/server/metrics/disk-overview.server";
import { DiskPanel, DiskWarning } from "./DiskPanel";

export const meta: MetaFunction = () => [{ title: "セキュリティ監視 | 管理画面" }];

const TABS = [
  ["overview", "概要"],
  ["logins", "ログイン監視"],
  ["users", "ユーザー管理"],
  ["system", "システム状態"],
  ["tokens", "APIトークン"],
] as const;
type Tab = (typeof TABS)[number][0];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const url = new URL(request.url);
  const tab = (TABS.find(([key]) => key === url.searchParams.get("tab"))?.[0] ?? "overview") as Tab;
  const page = pageNumber(url.searchParams.get("page"), 1000);
  return {
    tab,
    dashboard: securityDashboard(parsePeriod(url.searchParams.get("period")), protectionSettings(), {
      eventsPage: page,
    }),
    tokens: tab === "tokens" ? listApiTokens() : [],
    backups: tab === "system" || tab === "overview" ? backupOverview() : null,
    disks: tab === "system" || tab === "overview" ? await diskOverview() : null,
    now: now().toISOString(),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { admin } = await requireAdminPage(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "token-create") {
    const submission = parseForm(form, { schema: apiTokenCreateSchema });
    if (submission.status !== "success")
      return data({ result: submission.reply(), created: null }, { status: 400 });
    // Answered, not redirected: the token is shown this once and kept nowhere but in its hash.
    const created = createApiToken(admin.id, submission.value);
    return {
      result: submission.reply({ resetForm: true }),
      created: { ...created, expiresAt: created.expiresAt?.toISOString() ?? null },
    };
  }
  if (intent === "token-revoke") {
    const submission = parseForm(form, { schema: apiTokenRevokeSchema });
    const revoked = submission.status === "success" && revokeApiToken(submission.value.tokenId);
    return redirectWithToast(
      request,
      "/admin/security?tab=tokens",
      revoked
        ? {
            kind: "success",
            title: "トークンを無効化しました",
            description: "このトークンを使うスクリプトは以後 401 になります。",
          }
        : {
            kind: "error",
            title: "無効化できませんでした",
            description: "トークンが見つからないか、すでに無効です。",
          },
      { status: 303 },
    );
  }
  return unlock(request, form);
}

/** Unlocking a locked account: the daily-use touch for a customer who calls the shop. */
async function unlock(request: Request, form: FormData) {
  const userId = positiveId(form.get("userId"));
  const back = `/admin/security?tab=users`;
  if (!userId || !unlockAccount(userId)) {
    return redirectWithToast(
      request,
      back,
      { kind: "error", title: "解除に失敗しました", description: "アカウントが見つかりません。" },
      { status: 303 },
    );
  }
  return redirectWithToast(
    request,
    back,
    { kind: "success", title: "ロックを解除しました" },
    { status: 303 },
  );
}

const RISK = {
  low: ["低", "bg-emerald-100 text-emerald-900"],
  medium: ["中", "bg-amber-100 text-amber-900"],
  high: ["高", "bg-red-100 text-red-900"],
} as const;
const OUTCOME: Record<string, string> = {
  success: "成功",
  failure: "失敗",
  locked: "ロック中",
  blocked: "ブロック",
  "second-factor-failure": "2段階認証失敗",
  "api-token": "APIトークン使用",
  "api-token-refused": "APIトークン拒否",
};

export default function SecurityDashboardPage() {
  const { tab, dashboard, tokens, backups, disks, now: loadedAt } = useLoaderData<typeof loader>();
  const tabBar = useCurrentTabInView<HTMLElement>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    const timer = window.setInterval(() => revalidate.current(), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  const link = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) next.set(key, value);
    return `?${next.toString()}`;
  };
  const [riskLabel, riskClass] = RISK[dashboard.riskAssessment.overallRiskLevel];

  return (
    <div className="mx-auto max-w-7xl px-4 py-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">セキュリティ監視</h1>
          <p className="text-sm text-zinc-600">
            更新: {formatDateTime(new Date(dashboard.timestamp))}（30秒ごとに自動更新）
          </p>
        </div>
        <div className="flex flex-wrap gap-2 text-sm">
          {Object.keys(SECURITY_PERIODS).map((period) => (
            <Link
              key={period}
              to={link({ period, page: "1" })}
              className={`rounded-lg border px-3 py-1.5 ${dashboard.period === period ? "border-zinc-900 bg-zinc-900 text-white" : "border-zinc-300 bg-white"}`}
            >
              {period === "24h" ? "24時間" : period === "7d" ? "7日間" : "30日間"}
            </Link>
          ))}
          <Link to={link({})} className="rounded-lg border border-zinc-300 bg-white px-3 py-1.5">
            最新の情報に更新
          </Link>
        </div>
      </div>

      <nav
        ref={tabBar}
        aria-label="セキュリティ監視のタブ"
        className="mt-5 overflow-x-auto border-b border-zinc-300 text-sm whitespace-nowrap"
      >
        {/* Wider than a phone: the tabs fade out at an edge while more lie beyond it. */}
        <div className="flex gap-1 [--tab-fade:var(--color-zinc-100)] max-md:tab-fades">
          {TABS.map(([key, label]) => (
            <Link
              key={key}
              to={link({ tab: key, page: "1" })}
              aria-current={tab === key ? "page" : undefined}
              className={`rounded-t-lg px-4 py-2 ${tab === key ? `bg-white font-semibold ${CURRENT_TAB_IN_VIEW}` : "text-zinc-600"}`}
            >
              {label}
            </Link>
          ))}
        </div>
      </nav>

      <section className="rounded-b-xl bg-white p-4 shadow-sm sm:p-6">
        {tab === "overview" ? (
          <div className="space-y-6">
            {disks ? <DiskWarning volumes={disks} to={link({ tab: "system" })} /> : null}
            {backups ? <BackupWarning backups={backups} to={link({ tab: "system" })} /> : null}
            <div className="flex items-center gap-3">
              <span className="font-semibold">総合リスク</span>
              <span className={`rounded-full px-3 py-1 text-sm font-bold ${riskClass}`}>{riskLabel}</span>
            </div>
            <Stats
              items={[
                ["ログイン試行", dashboard.loginSecurity.totalLoginAttempts],
                ["成功", dashboard.loginSecurity.successfulLogins],
                ["失敗", dashboard.loginSecurity.failedLogins],
                ["成功率", `${dashboard.loginSecurity.successRate}%`],
                ["高リスク", dashboard.loginSecurity.highRiskAttempts],
                ["ブロック", dashboard.loginSecurity.blockedAttempts],
                ["IPアドレス数", dashboard.ipSecurity.uniqueIPs],
                ["不審なIP", dashboard.ipSecurity.suspiciousIPs],
              ]}
            />
            <div className="grid gap-4 md:grid-cols-2">
              <div>
                <h2 className="font-semibold">リスク要因</h2>
                <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
                  {dashboard.riskAssessment.riskFactors.length === 0 ? (
                    <li>なし</li>
                  ) : (
                    dashboard.riskAssessment.riskFactors.map((factor) => <li key={factor}>{factor}</li>)
                  )}
                </ul>
              </div>
              <div>
                <h2 className="font-semibold">推奨される対応</h2>
                <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
                  {dashboard.riskAssessment.recommendations.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              </div>
            </div>
          </div>
        ) : null}

        {tab === "logins" ? (
          <div>
            <Stats
              items={[
                ["信頼できるIP", dashboard.ipSecurity.trustedIPs],
                ["不審なIP", dashboard.ipSecurity.suspiciousIPs],
                ["ブロック中のIP", dashboard.ipSecurity.blockedIPs.length],
                ["APIトークン使用", dashboard.apiTokens.uses],
                ["拒否されたAPIトークン", dashboard.apiTokens.refused],
              ]}
            />
            {dashboard.ipSecurity.blockedIPs.length > 0 ? (
              <p className="mt-3 text-sm">ブロック中: {dashboard.ipSecurity.blockedIPs.join(", ")}</p>
            ) : null}
            <div className="mt-4 overflow-x-auto">
              <table className="w-full min-w-[40rem] text-left text-sm">
                <thead className="border-b border-zinc-200 text-zinc-500">
                  <tr>
                    <th className="py-2 pr-3 font-medium">日時</th>
                    <th className="py-2 pr-3 font-medium">種別</th>
                    <th className="py-2 pr-3 font-medium">結果</th>
                    <th className="py-2 pr-3 font-medium">メールアドレス</th>
                    <th className="py-2 pr-3 font-medium">IPアドレス</th>
                    <th className="py-2 font-medium">リスク</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-zinc-100">
                  {dashboard.recentEvents.length === 0 ? (
                    <tr>
                      <td colSpan={6} className="py-6 text-center text-zinc-500">
                        この期間のログイン試行はありません
                      </td>
                    </tr>
                  ) : (
                    dashboard.recentEvents.map((event, index) => (
                      <tr key={`${event.timestamp}-${index}`}>
                        <td className="py-2 pr-3 whitespace-nowrap">
                          {formatDateTime(new Date(event.timestamp))}
                        </td>
                        <td className="py-2 pr-3">{event.kind === "admin" ? "管理者" : "顧客"}</td>
                        <td className="py-2 pr-3">{OUTCOME[event.outcome] ?? event.outcome}</td>
                        <td className="py-2 pr-3 break-all">{event.email}</td>
                        <td className="py-2 pr-3 font-mono text-xs">{event.ip}</td>
                        <td
                          className={`py-2 font-semibold ${event.riskScore >= 70 ? "text-red-700" : event.riskScore >= 40 ? "text-amber-700" : "text-zinc-700"}`}
                        >
                          {event.riskScore}
                        </td>
                      </tr>
                    ))
                  )}
                </tbody>
              </table>
            </div>
            <div className="mt-4 flex justify-between text-sm">
              {dashboard.recentEventsPage > 1 ? (
                <Link to={link({ page: String(dashboard.recentEventsPage - 1) })}>← 新しい記録</Link>
              ) : (
                <span />
              )}
              {dashboard.recentEvents.length === 20 ? (
                <Link to={link({ page: String(dashboard.recentEventsPage + 1) })}>古い記録 →</Link>
              ) : null}
            </div>
          </div>
        ) : null}

        {tab === "users" ? (
          <div>
            <Stats
              items={[
                ["登録ユーザー", dashboard.userAccounts.totalUsers],
                ["期間内にログイン", dashboard.userAccounts.activeUsers],
                ["ロック中", dashboard.userAccounts.lockedAccounts],
                ["24時間以内の新規登録", dashboard.userAccounts.newRegistrations],
              ]}
            />
            <h2 className="mt-6 font-semibold">ロック中のアカウント</h2>
            {dashboard.lockedAccounts.length === 0 ? (
              <p className="mt-2 text-sm text-zinc-600">ロック中のアカウントはありません</p>
            ) : (
              <ul className="mt-2 divide-y divide-zinc-100">
                {dashboard.lockedAccounts.map((account) => (
                  <li
                    key={account.id}
                    className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm"
                  >
                    <span className="break-all">
                      {account.email}
                      {account.isAdmin ? "（管理者）" : ""}・解除予定{" "}
                      {account.lockedUntil ? formatDateTime(new Date(account.lockedUntil)) : ""}
                    </span>
                    <Form method="post">
                      <input type="hidden" name="userId" value={account.id} />
                      <button
                        type="submit"
                        className="rounded-lg border border-zinc-300 px-3 py-1.5 hover:bg-zinc-100"
                      >
                        ロックを解除
                      </button>
                    </Form>
                  </li>
                ))}
              </ul>
            )}
          </div>
        ) : null}

        {tab === "tokens" ? (
          <ApiTokensPanel
            tokens={tokens.map((token) => ({
              ...token,
              createdAt: token.createdAt.toISOString(),
              expiresAt: token.expiresAt?.toISOString() ?? null,
              lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
              revokedAt: token.revokedAt?.toISOString() ?? null,
            }))}
            created={actionData?.created ?? null}
            lastResult={actionData?.result}
            now={loadedAt}
          />
        ) : null}

        {tab === "system" ? (
          <div>
            <ul className="divide-y divide-zinc-100">
              {(
                [
                  ["fraudDetectionActive", "不正検知（リスクスコア）"],
                  ["rateLimitingActive", "IPアドレスごとの試行回数制限"],
                  ["twoFactorActive", "管理者の2段階認証"],
                  ["ipRestrictionActive", "管理画面のIPアドレス制限"],
                  ["accountLockoutActive", "アカウントロック"],
                ] as const
              ).map(([key, label]) => (
                <li key={key} className="flex items-center justify-between py-3 text-sm">
                  <span>{label}</span>
                  <span
                    className={`rounded-full px-3 py-1 font-semibold ${dashboard.systemHealth[key] ? "bg-emerald-100 text-emerald-900" : "bg-zinc-200 text-zinc-700"}`}
                  >
                    {dashboard.systemHealth[key] ? "有効" : "無効"}
                  </span>
                </li>
              ))}
            </ul>
            {disks ? <DiskPanel volumes={disks} /> : null}
            {backups ? <BackupPanel backups={backups} now={loadedAt} /> : null}
          </div>
        ) : null}
      </section>
    </div>
  );
}

function Stats({ items }: { items: [string, string | number][] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {items.map(([label, value]) => (
        <div key={label} className="rounded-xl border border-zinc-200 p-3">
          <dt className="text-xs text-zinc-500">{label}</dt>
          <dd className="mt-1 text-2xl font-bold">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
