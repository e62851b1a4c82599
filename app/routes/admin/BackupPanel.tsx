import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatDateTime, formatInterval } from "~/lib/rules/format";
import type { BackupConcern, BackupOverview, BackupStanding } from "~/server/backups/backup-overview.server";
import { BackupDetails } from "./BackupDetails";

/**
 * システム状態's backups, written for the shop owner: what is safe, as of when, what to do and whom
 * to ask. The word beside the heading is the worst of the warnings under it (the server's
 * `standing`), so it never says 正常 beside one. Settings, paths and commands are for whoever runs
 * the server: they are folded into 詳細 (BackupDetails).
 */

const STANDING: Record<BackupStanding, [string, string]> = {
  safe: ["正常", "bg-emerald-100 text-emerald-900"],
  waiting: ["準備中", "bg-zinc-200 text-zinc-800"],
  caution: ["注意", "bg-amber-100 text-amber-900"],
  trouble: ["要対応", "bg-red-100 text-red-900"],
};

/** Who can change the settings and restore: named once, the same words everywhere on the panel. */
const HELPER = "サーバーの管理者";

/** Minutes or hours ago, for "the last copy was …" (the page's load time is `now`). */
function ago(at: string, now: string): string {
  const minutes = Math.max(0, Math.round((Date.parse(now) - Date.parse(at)) / 60_000));
  if (minutes < 1) return "1 分以内";
  if (minutes < 60) return `${minutes} 分前`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} 時間 ${minutes % 60} 分前` : `${Math.floor(hours / 24)} 日前`;
}

/** Each concern in plain words: what it means, and what the owner can do about it. */
function concernWords(concern: BackupConcern, backups: BackupOverview, now: string): [string, string] {
  const last = backups.lastGood ? `${formatDateTime(new Date(backups.lastGood.at))}` : null;
  switch (concern) {
    case "failing":
      return [
        `バックアップが失敗しています（${backups.failures} 回）`,
        `${last ? `最後に取れたバックアップ（${last}）より後のデータは、まだ控えがありません。` : "まだ一度も取れていません。"}${HELPER}に連絡し、下の「詳細」を見てもらってください。`,
      ];
    case "late":
      return [
        "バックアップが予定どおりに取れていません",
        `最後に取れたのは${backups.lastGood ? ago(backups.lastGood.at, now) : "かなり前"}です（${formatInterval(backups.intervalMinutes)}ごとの予定）。${HELPER}に連絡してください。`,
      ];
    case "replicaLate":
      return [
        "データをサーバーの外へ写す仕組みが遅れているか、止まっています",
        `この間の注文などは、サーバーが壊れると失われるおそれがあります。${HELPER}に連絡してください。`,
      ];
    case "off":
      return ["自動のバックアップが止められています", `${HELPER}に、止めたままでよいか確かめてください。`];
    case "onMachine":
      return [
        "バックアップがこのサーバーの中にしかありません",
        `サーバーが壊れると、データとバックアップが一緒に失われます。${HELPER}に、バックアップをサーバーの外（クラウドのファイル置き場）に保存する設定を頼んでください。`,
      ];
    case "videosOnMachine":
      return [
        "動画と画像はこのサーバーの中にしかありません",
        `動画と画像はバックアップに含まれないため、サーバーが壊れると失われます。お手元の元の動画ファイルは消さずに保管してください。サーバーの外に保存する設定は${HELPER}に頼めます。`,
      ];
  }
}

function Concerns({ backups, now }: { backups: BackupOverview; now: string }) {
  if (backups.concerns.length === 0) return null;
  return (
    <ul className="mt-4 space-y-3">
      {backups.concerns.map((concern) => {
        const [title, todo] = concernWords(concern, backups, now);
        const trouble = concern === "failing" || concern === "late" || concern === "replicaLate";
        return (
          <li
            key={concern}
            className={`rounded-lg border p-3 text-sm ${trouble ? "border-red-200 bg-red-50 text-red-900" : "border-amber-200 bg-amber-50 text-amber-950"}`}
          >
            <p className="font-semibold">{title}</p>
            <p className="mt-1">{todo}</p>
          </li>
        );
      })}
    </ul>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-zinc-600">{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** The facts, in the owner's words: what is copied, the newest copy, how often, how far back, where. */
function Facts({ backups, now }: { backups: BackupOverview; now: string }) {
  const { replica, lastGood } = backups;
  const off = backups.intervalMinutes === 0;
  return (
    <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
      <Fact term="バックアップされるもの">注文、お客様のアカウント、大会と選手、クーポン、売上の記録</Fact>
      <Fact term="最新のバックアップ">
        {lastGood
          ? `${formatDateTime(new Date(lastGood.at))}（${ago(lastGood.at, now)}）`
          : off
            ? "自動では取っていません"
            : "まだありません（サーバーの起動から 1 分ほどで最初の 1 件を取ります）"}
        {replica && replica.lastSyncAt ? (
          <span className="mt-1 block text-zinc-700">
            これとは別に、書き込みは 1 秒ごとにサーバーの外へ写しています（最後に写した時刻:{" "}
            {formatDateTime(new Date(replica.lastSyncAt))}）。
          </span>
        ) : null}
      </Fact>
      {off ? null : <Fact term="取る間隔">{formatInterval(backups.intervalMinutes)}ごと</Fact>}
      <Fact term="さかのぼれる範囲">
        {replica ? `直近 ${replica.keptHours / 24} 日間は 1 秒単位で。それより前は、` : null}
        {off ? "—" : backups.kept}
      </Fact>
      <Fact term="保管場所">
        {backups.offMachine ? "サーバーの外（クラウドのファイル置き場）" : "このサーバーの中だけ"}
      </Fact>
      <Fact term="動画と画像">
        バックアップには含まれません。
        {backups.videos.inBucket
          ? "クラウドのファイル置き場に保存されていて、このサーバーが壊れても残ります。"
          : "このサーバーのディスクにだけ保存されています。"}
      </Fact>
      <Fact term="元に戻したいとき">
        {HELPER}（このショップを設置・保守している担当者）に、戻したい日時を伝えて頼んでください。
      </Fact>
    </dl>
  );
}

export function BackupPanel({ backups, now }: { backups: BackupOverview; now: string }) {
  const [label, tone] = STANDING[backups.standing];
  return (
    <section aria-labelledby="backups-heading" className="mt-6 border-t border-zinc-200 pt-5">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="backups-heading" className="font-semibold">
          データのバックアップ
        </h2>
        <span className={`rounded-full px-3 py-1 text-sm font-semibold ${tone}`}>{label}</span>
      </div>
      {backups.standing === "safe" ? (
        <p className="mt-2 text-sm">ショップのデータは、サーバーの外に控えがあります。</p>
      ) : null}
      <Concerns backups={backups} now={now} />
      <Facts backups={backups} now={now} />
      <BackupDetails backups={backups} />
    </section>
  );
}

/** 概要's line when backups need help now (failing, late, or the replica behind), linking to システム状態. */
export function BackupWarning({ backups, to }: { backups: BackupOverview; to: string }) {
  if (backups.standing !== "trouble") return null;
  return (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
      {backups.concerns.includes("failing")
        ? `データのバックアップが失敗しています（${backups.failures} 回）。`
        : backups.concerns.includes("late")
          ? "データのバックアップが予定どおりに取れていません。"
          : "データをサーバーの外へ写す仕組みが遅れているか、止まっています。"}
      <Link to={to} className="ml-1 font-semibold underline">
        システム状態を見る
      </Link>
    </p>
  );
}
