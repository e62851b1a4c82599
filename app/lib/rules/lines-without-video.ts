/**
 * Why an order line gets no video: marked お断り (the shop cannot make it), or its money given
 * back (返金, lib/rules/refunds.ts refundedLineIds). The server decides which lines
 * (server/delivery/lines-without-video.server.ts); the back-office's screens say it in these words.
 */
export type WithoutVideo = "お断り" | "返金";

/** Why this line gets no video (お断り first: the shop's own word to the customer), or null when it gets one. */
export function lineWithoutVideo(
  line: { id: number; refused: boolean },
  refunded: ReadonlySet<number>,
): WithoutVideo | null {
  if (line.refused) return "お断り";
  return refunded.has(line.id) ? "返金" : null;
}

export const WITHOUT_VIDEO_LABELS: Record<WithoutVideo, string> = {
  お断り: "お断りのため動画なし",
  返金: "返金済みのため動画なし",
};

/** An order of nothing but such lines, in a few words: 全明細返金済み, 全明細お断り, or both. */
export function nothingToDeliverReason(reasons: readonly WithoutVideo[]): string {
  if (reasons.every((reason) => reason === "返金")) return "全明細返金済み";
  if (reasons.every((reason) => reason === "お断り")) return "全明細お断り";
  return "全明細が返金済みまたはお断り";
}
