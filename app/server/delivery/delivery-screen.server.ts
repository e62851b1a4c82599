import { ORIENTATION_LABELS, type Orientation } from "~/lib/rules/pricing";
import { anyUnfinished } from "~/lib/rules/video-job-states";
import { deliveryVideoStates, type VideoRowState } from "../media/video-states.server";
import { deliveryPlan } from "./delivery-plan.server";
import type { WaitingFile } from "./plan/files.server";

type AthleteLabel = { athleteNumber: number; name: string };

/** One file as the matching screen shows it. */
export type ScreenFile = {
  id: number;
  originalName: string;
  size: number;
  byHand: boolean;
  athlete: AthleteLabel | null;
  orientation: Orientation | null;
  style: string | null;
  reason: string | null;
  candidates: (AthleteLabel & { orientation: Orientation | null; style: string | null })[];
  orderNumbers: string[];
  replaces: WaitingFile["replaces"];
  /** The video's reading, poster and background work (null for a file no longer stored). */
  video: VideoRowState | null;
};

/**
 * The matching screen's data, ready to render: waiting files sorted into matched, ambiguous
 * and unmatched, with athletes and styles spelled out in the contest's own words.
 */
export function deliveryScreen(contestId: number) {
  const plan = deliveryPlan(contestId);
  if (!plan) return null;
  const styleOf = (orientation: Orientation | null) =>
    orientation
      ? (plan.styles.find((style) => style.orientation === orientation)?.name ??
        ORIENTATION_LABELS[orientation])
      : null;
  const videos = deliveryVideoStates(contestId, [
    ...plan.waiting.map((file) => file.id),
    ...plan.delivered.map((file) => file.id),
  ]);
  const label = (athleteId: number | null): AthleteLabel | null => {
    const athlete = athleteId === null ? undefined : plan.athletes.get(athleteId);
    return athlete ? { athleteNumber: athlete.athleteNumber, name: athlete.name } : null;
  };
  const view = (file: WaitingFile): ScreenFile => ({
    id: file.id,
    originalName: file.originalName,
    size: file.size,
    byHand: file.byHand,
    athlete: file.match.kind === "matched" ? label(file.match.athleteId) : null,
    orientation: file.match.kind === "matched" ? file.match.orientation : null,
    style: file.match.kind === "matched" ? styleOf(file.match.orientation) : null,
    reason: file.match.kind === "matched" ? null : file.match.reason,
    candidates:
      file.match.kind === "ambiguous"
        ? file.match.candidates.flatMap((candidate) => {
            const athlete = label(candidate.athleteId);
            return athlete
              ? [{ ...athlete, orientation: candidate.orientation, style: styleOf(candidate.orientation) }]
              : [];
          })
        : [],
    orderNumbers: file.orderNumbers,
    replaces: file.replaces,
    video: videos[file.id] ?? null,
  });
  const byNumber = (a: ScreenFile, b: ScreenFile) =>
    (a.athlete?.athleteNumber ?? Infinity) - (b.athlete?.athleteNumber ?? Infinity) ||
    a.originalName.localeCompare(b.originalName, "ja");
  return {
    numberLabel: plan.numberLabel,
    styles: plan.styles,
    matched: plan.waiting
      .filter((file) => file.match.kind === "matched")
      .map(view)
      .sort(byNumber),
    ambiguous: plan.waiting.filter((file) => file.match.kind === "ambiguous").map(view),
    unmatched: plan.waiting.filter((file) => file.match.kind === "unmatched").map(view),
    delivered: plan.delivered
      .map((file) => ({
        id: file.id,
        originalName: file.originalName,
        size: file.size,
        athlete: label(file.athleteId),
        style: styleOf(file.orientation),
        lineCount: file.lineCount,
        video: videos[file.id] ?? null,
      }))
      .sort((a, b) => (a.athlete?.athleteNumber ?? Infinity) - (b.athlete?.athleteNumber ?? Infinity)),
    missing: plan.missing,
    ready: plan.ready,
    incomplete: plan.incomplete,
    nothingToDeliver: plan.nothingToDeliver,
    replacing: plan.toUse.filter((file) => file.replaces !== null).length,
    changedSinceMail: plan.changedSinceMail,
    /** Whether a file's poster or phone version is still being made (the page refreshes itself meanwhile). */
    processing: anyUnfinished(Object.values(videos).map((video) => video.state)),
    /** Waiting files whose processing failed: said beside 一括納品 (their original may be gone). */
    failedFiles: plan.waiting.filter((file) => videos[file.id]?.state?.status === "failed").length,
  };
}
export type DeliveryScreen = NonNullable<ReturnType<typeof deliveryScreen>>;
