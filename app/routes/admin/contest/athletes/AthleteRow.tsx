import type { SubmissionResult } from "@conform-to/react";
import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import type { AthleteActionResult } from "~/server/catalog/athlete-tab.server";
import { AthleteRowFields } from "./AthleteRowFields";
import { athleteLabel, useFetcherOutcome, useFlash, type RowProps } from "./table-state";

/**
 * One editable row. Its inputs belong to the form in the last cell by the form
 * attribute (a form may not wrap table cells). With JS the form posts through a
 * fetcher: the typed values stand at once, a failure puts the saved values back with
 * the reason, and a save lights the row for 2 seconds.
 */
export function AthleteRow({
  athlete,
  context,
  selected,
  onSelect,
  hiddenByBulk,
  highlighted,
  onNotice,
}: RowProps) {
  const fetcher = useFetcher<AthleteActionResult>({ key: `athlete-${athlete.id}` });
  const [rollbacks, setRollbacks] = useState(0);
  const [error, setError] = useState<string | null>(null);
  // A refusal of one field (a number another athlete has) keeps what was typed, with the
  // reason under that field; any other failure puts the saved values back.
  const [fieldReply, setFieldReply] = useState<SubmissionResult<string[]> | null>(null);
  const [saved, flashSaved] = useFlash();
  useFetcherOutcome(fetcher, (result) => {
    if (result.ok) {
      setError(null);
      setFieldReply(null);
      if (result.kind === "row") flashSaved();
      else onNotice({ ok: true, message: result.message ?? "完了しました。" });
    } else {
      if (result.kind === "row" && hasFieldErrors(result.reply)) {
        setFieldReply(result.reply ?? null);
        setError(null);
      } else {
        setFieldReply(null);
        setRollbacks((n) => n + 1);
        setError(result.message ?? "保存に失敗しました。");
      }
      onNotice({
        ok: false,
        message: `${athleteLabel(athlete)}: ${result.message ?? "保存に失敗しました。"}`,
      });
    }
  });
  const pendingIntent = fetcher.formData?.get("intent");
  if (hiddenByBulk || pendingIntent === "delete") return null;
  const plainPostResult = context.rowResult?.id === athlete.id ? context.rowResult : null;
  return (
    <AthleteRowFields
      key={`${athlete.updatedAt}-${athlete.verticalVideoPrice}-${athlete.horizontalVideoPrice}-${athlete.videoStatus}-${athlete.photoStatus}-${rollbacks}`}
      athlete={athlete}
      context={context}
      selected={selected}
      onSelect={onSelect}
      fetcher={fetcher}
      lastResult={fieldReply ?? plainPostResult?.reply ?? null}
      error={
        error ??
        (plainPostResult && !plainPostResult.ok && !hasFieldErrors(plainPostResult.reply)
          ? (plainPostResult.message ?? null)
          : null)
      }
      saving={pendingIntent === "update"}
      highlighted={saved || highlighted}
    />
  );
}

/** Whether a reply names a field; then the message stands beside that field, not again for the row. */
function hasFieldErrors(reply: SubmissionResult<string[]> | undefined): boolean {
  return Object.entries(reply?.error ?? {}).some(
    ([name, messages]) => name !== "" && Boolean(messages?.length),
  );
}
