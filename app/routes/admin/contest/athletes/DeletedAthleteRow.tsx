import { Link, useFetcher } from "@remix-run/react";
import { useState } from "react";
import { FieldError } from "~/components/forms";
import { formatYen } from "~/lib/rules/format";
import { UNCATEGORISED } from "~/lib/schemas/athlete-schemas";
import type { AthleteActionResult } from "~/server/catalog/athlete-tab.server";
import type { PurgeTarget } from "./PurgeConfirmation";
import { FetcherReply, RowButton, SelectCell, STICKY_CELL, StatusBadge } from "./table-columns";
import { athleteLabel, useFetcherOutcome, type RowProps } from "./table-state";

const CELL = "px-2 py-2 align-middle";

/** A row of the 削除済み view: read-only, with 復元 and 完全に削除. */
export function DeletedAthleteRow({
  athlete,
  selected,
  onSelect,
  hiddenByBulk,
  onNotice,
  purgeLink,
  onAskPurge,
}: RowProps & {
  /** Without JS 完全に削除 is this link to the list's confirmation panel. */
  purgeLink: string;
  onAskPurge: ((target: PurgeTarget) => void) | null;
}) {
  const fetcher = useFetcher<AthleteActionResult>({ key: `athlete-${athlete.id}` });
  const [error, setError] = useState<string | null>(null);
  const label = athleteLabel(athlete);
  useFetcherOutcome(fetcher, (result) => {
    setError(result.ok ? null : (result.message ?? "操作に失敗しました。"));
    onNotice({
      ok: result.ok,
      message: result.ok
        ? (result.message ?? "完了しました。")
        : `${label}: ${result.message ?? "操作に失敗しました。"}`,
    });
  });
  const pendingIntent = fetcher.formData?.get("intent");
  if (hiddenByBulk || pendingIntent === "restore" || pendingIntent === "purge") return null;
  const price = (value: number | null) => (value === null ? "未設定" : formatYen(value));
  return (
    <tr aria-label={label} className="text-zinc-700">
      <SelectCell athlete={athlete} selected={selected} onSelect={onSelect} readOnly />
      <td className={`left-10 ${CELL} tabular-nums ${STICKY_CELL}`}>{athlete.athleteNumber}</td>
      <td className={CELL}>{athlete.name}</td>
      <td className={CELL}>{athlete.category || UNCATEGORISED}</td>
      <td className={`${CELL} whitespace-nowrap`}>{price(athlete.verticalVideoPrice)}</td>
      <td className={`${CELL} whitespace-nowrap`}>{price(athlete.horizontalVideoPrice)}</td>
      <td className={CELL}>
        <StatusBadge status={athlete.videoStatus} />
      </td>
      <td className={CELL}>
        <StatusBadge status={athlete.photoStatus} />
      </td>
      <td className={CELL}>
        <div className="flex flex-wrap gap-2">
          <fetcher.Form method="post">
            <input type="hidden" name="id" value={athlete.id} />
            <FetcherReply />
            <RowButton intent="restore" tone="neutral" label={`${label}を復元`}>
              復元
            </RowButton>
          </fetcher.Form>
          <Link
            to={purgeLink}
            onClick={(event) => {
              if (!onAskPurge) return;
              event.preventDefault();
              onAskPurge({
                label,
                confirm: () =>
                  fetcher.submit(
                    { intent: "purge", id: String(athlete.id), confirm: "yes", reply: "fetcher" },
                    { method: "post" },
                  ),
              });
            }}
            className="inline-flex min-h-11 items-center rounded-lg border border-red-300 px-3 text-sm text-red-700 hover:bg-red-50"
            aria-label={`${label}を完全に削除`}
          >
            完全に削除
          </Link>
        </div>
        <FieldError errors={error ? [error] : null} announce className="text-xs" />
      </td>
    </tr>
  );
}
