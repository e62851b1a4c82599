import { Link } from "@remix-run/react";
import { formatBytes } from "~/lib/rules/format";
import type { DiskVolume } from "~/server/metrics/disk-overview.server";

/** システム状態's disks: how full each is, and the room kept so orders can always be written. */
export function DiskPanel({ volumes }: { volumes: DiskVolume[] }) {
  return (
    <section aria-labelledby="disks-heading" className="mt-6 border-t border-zinc-200 pt-5">
      <h2 id="disks-heading" className="font-semibold">
        ディスクの空き容量
      </h2>
      {volumes.map((volume) => (
        <div key={volume.holds.join("・")} className="mt-3">
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <span className="font-semibold">{volume.holds.join("・")}</span>
            <span
              className={`rounded-full px-3 py-1 font-semibold ${volume.belowReserve ? "bg-red-100 text-red-900" : "bg-emerald-100 text-emerald-900"}`}
            >
              {volume.belowReserve ? "予約を下回っています" : "正常"}
            </span>
          </div>
          <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="text-zinc-500">空き</dt>
            <dd>
              {formatBytes(volume.freeBytes)}（全体 {formatBytes(volume.sizeBytes)}）
            </dd>
            <dt className="text-zinc-500">注文の受付のために残す容量</dt>
            <dd>{formatBytes(volume.reserveBytes)}（DISK_RESERVE_MB、ディスクの 1/10 まで）</dd>
          </dl>
          {volume.belowReserve ? (
            <p
              role="alert"
              className="mt-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900"
            >
              空き容量が、注文の受付のために残す {formatBytes(volume.reserveBytes)}{" "}
              を下回っています。アップロードは受け付けず、/readyz
              は準備ができていないと答えています。不要なファイルを削除するか、ボリュームを拡張してください。
            </p>
          ) : null}
        </div>
      ))}
      <p className="mt-3 text-sm text-zinc-600">アップロードは、空き容量がこの容量を下回る前に止まります。</p>
    </section>
  );
}

/** 概要's line when a disk is below its reserve, linking to システム状態. */
export function DiskWarning({ volumes, to }: { volumes: DiskVolume[]; to: string }) {
  const low = volumes.find((volume) => volume.belowReserve);
  if (!low) return null;
  return (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
      サーバーの空き容量が不足しています（空き {formatBytes(low.freeBytes)}、注文の受付のために残す容量{" "}
      {formatBytes(low.reserveBytes)}）。アップロードは受け付けていません。
      <Link to={to} className="ml-1 font-semibold underline">
        システム状態を見る
      </Link>
    </p>
  );
}
