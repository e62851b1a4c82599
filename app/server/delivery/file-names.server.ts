/**
 * Reading an edited video's file name at batch delivery (一括納品): which athlete and which style
 * it is for, so that one file can be matched to every open order line for that athlete and style.
 * Editors name files in many ways (`12_縦.mp4`, `012-横.mov`, `No12 縦.mp4`, `演奏順12_yoko.mp4`,
 * `１２＿縦.mp4`, `12_山田花子_縦.mp4`); the matcher reads them all, and where a name could mean
 * two things it says so (ambiguous) rather than guess, because a wrong guess sends one family's
 * video to another. Pure: the contest's styles and athletes are passed in. How a name is read is
 * in `file-names/` (reading.server.ts walks the steps); this module decides what the reading
 * means for the contest's athletes.
 */
import { ORIENTATION_LABELS, type Orientation } from "~/lib/rules/pricing";
import {
  partlyNamed,
  prepare,
  type MatchAthlete,
  type PreparedAthletes,
} from "./file-names/athlete-names.server";
import { read, type Reading } from "./file-names/reading.server";
import { soldOrientations, type DeliveryStyle } from "./file-names/styles.server";
import { onlyOne } from "./file-names/text.server";

export type DeliveryContest = { styles: DeliveryStyle[]; numberLabel: string; athletes: MatchAthlete[] };
export type ParsedFileName = {
  athleteNumber: number | null;
  orientation: Orientation | null;
  nameText: string;
};
export type FileMatch =
  | { kind: "matched"; athleteId: number; orientation: Orientation }
  | {
      kind: "ambiguous";
      reason: string;
      candidates: { athleteId: number; orientation: Orientation | null }[];
    }
  | { kind: "unmatched"; reason: string };

/** One key per athlete and style: one delivery file serves every order line with the same key. */
export function matchKey(athleteId: number, orientation: Orientation): string {
  return `${athleteId}:${orientation}`;
}

const NO_ATHLETES: MatchAthlete[] = [];

/**
 * What a file name says, without the athletes: the athlete number (null when there is none or
 * more than one), the style (a one-style contest's style when none is written) and the words
 * left over, which may be a name.
 */
export function parseDeliveryFileName(
  fileName: string,
  styles: DeliveryStyle[],
  numberLabel = "",
): ParsedFileName {
  const reading = read(fileName, styles, numberLabel, prepare(NO_ATHLETES));
  const sold = soldOrientations(styles);
  const orientation =
    reading.style.kind === "one"
      ? reading.style.orientation
      : reading.style.kind === "none"
        ? onlyOne(sold)
        : null;
  return {
    athleteNumber: onlyOne(reading.numbers),
    orientation,
    nameText: reading.leftover.join(" "),
  };
}

type Who =
  | { kind: "one"; id: number }
  | { kind: "some"; ids: number[]; reason: string }
  | { kind: "none"; reason: string };

function whoIsIt(reading: Reading, athletes: PreparedAthletes, label: string): Who {
  const named = reading.namedIds.length ? reading.namedIds : partlyNamed(reading.leftover, athletes);
  const { numbers } = reading;

  if (numbers.length > 1) {
    const numbered = numbers.flatMap((n) => athletes.byNumber.get(n) ?? []);
    // The name settles which of the numbers is the athlete's (12_13_山田花子_縦 with 山田花子 at 12).
    const agreeing = onlyOne(numbered.filter((id) => named.includes(id)));
    if (agreeing !== null) return { kind: "one", id: agreeing };
    const reason = `${label}が複数あります（${numbers.join("・")}）`;
    const ids = numbered.length ? numbered : named;
    return ids.length ? { kind: "some", ids, reason } : { kind: "none", reason };
  }

  const n = onlyOne(numbers);
  if (n !== null) {
    const numbered = athletes.byNumber.get(n) ?? [];
    if (!numbered.length) {
      return named.length
        ? { kind: "some", ids: named, reason: `${label}と名前が一致しません` }
        : { kind: "none", reason: `${label} ${n} の選手がいません` };
    }
    const agreeing = named.length ? numbered.filter((id) => named.includes(id)) : numbered;
    const one = onlyOne(agreeing);
    if (one !== null) return { kind: "one", id: one };
    if (agreeing.length > 1)
      return { kind: "some", ids: agreeing, reason: `${label} ${n} の選手が複数います` };
    return {
      kind: "some",
      ids: [...new Set([...numbered, ...named])],
      reason: `${label}と名前が一致しません`,
    };
  }

  const one = onlyOne(named);
  if (one !== null) return { kind: "one", id: one };
  if (named.length > 1) return { kind: "some", ids: named, reason: "名前が一致する選手が複数います" };
  if (reading.camera)
    return { kind: "none", reason: `カメラが付けたファイル名のようです（${label}がありません）` };
  return { kind: "none", reason: `${label}が見つかりません` };
}

/** The label the contest gives its athlete numbers (ゼッケン番号, 演奏順), for the reasons the admin reads. */
function labelFor(numberLabel: string): string {
  return numberLabel.trim() || "番号";
}

/**
 * The athlete and style a delivery file is for: matched, ambiguous (with the candidates the admin
 * chooses from on the matching screen) or unmatched, with a short reason in Japanese.
 */
export function matchDeliveryFile(fileName: string, contest: DeliveryContest): FileMatch {
  const athletes = prepare(contest.athletes);
  const label = labelFor(contest.numberLabel);
  const reading = read(fileName, contest.styles, contest.numberLabel, athletes);

  const who = whoIsIt(reading, athletes, label);
  if (who.kind === "none") return { kind: "unmatched", reason: who.reason };

  const sold = soldOrientations(contest.styles);
  if (!sold.length) return { kind: "unmatched", reason: "この大会には販売している動画がありません" };
  if (reading.style.kind === "unsold") {
    const way = ORIENTATION_LABELS[reading.style.filmed];
    return { kind: "unmatched", reason: `この大会では${way}の動画を販売していません` };
  }
  const styleNames = contest.styles.map((s) => s.name).join("・");
  const orientations = reading.style.kind === "one" ? [reading.style.orientation] : sold;
  const styleReason =
    reading.style.kind === "both"
      ? `スタイルが2つ書かれています（${reading.style.names.join("・")}）`
      : orientations.length > 1
        ? `スタイル（${styleNames}）が分かりません`
        : null;
  const orientation = onlyOne(orientations);
  if (who.kind === "one" && orientation !== null && styleReason === null) {
    return { kind: "matched", athleteId: who.id, orientation };
  }
  const ids = who.kind === "one" ? [who.id] : who.ids;
  const reason = [who.kind === "some" ? who.reason : null, styleReason].filter(Boolean).join("。");
  return {
    kind: "ambiguous",
    reason,
    candidates: ids.flatMap((athleteId) => orientations.map((orientation) => ({ athleteId, orientation }))),
  };
}
