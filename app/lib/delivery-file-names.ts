// TEMPORARY stand-in until the matcher branch (i14-matcher) is merged: same interface.
import type { Orientation } from "./pricing";

export type DeliveryStyle = { name: string; orientation: Orientation };
export type MatchAthlete = { id: number; athleteNumber: number; name: string };
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

export function matchKey(athleteId: number, orientation: Orientation): string {
  return `${athleteId}:${orientation}`;
}

export function parseDeliveryFileName(fileName: string, styles: DeliveryStyle[]): ParsedFileName {
  const text = fileName
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\.[a-z0-9]{2,4}$/, "");
  const number = /(\d+)/.exec(text)?.[1];
  const orientation = /縦|tate|vertical/.test(text)
    ? "vertical"
    : /横|yoko|horizontal/.test(text)
      ? "horizontal"
      : styles.length === 1
        ? (styles[0]?.orientation ?? null)
        : null;
  return { athleteNumber: number ? Number(number) : null, orientation, nameText: "" };
}

export function matchDeliveryFile(fileName: string, contest: DeliveryContest): FileMatch {
  const parsed = parseDeliveryFileName(fileName, contest.styles);
  if (parsed.athleteNumber === null) return { kind: "unmatched", reason: "番号が見つかりません" };
  const athlete = contest.athletes.find((a) => a.athleteNumber === parsed.athleteNumber);
  if (!athlete)
    return { kind: "unmatched", reason: `${contest.numberLabel} ${parsed.athleteNumber} の選手がいません` };
  if (!parsed.orientation)
    return {
      kind: "ambiguous",
      reason: "スタイル（縦・横）が分かりません",
      candidates: [
        { athleteId: athlete.id, orientation: "vertical" },
        { athleteId: athlete.id, orientation: "horizontal" },
      ],
    };
  return { kind: "matched", athleteId: athlete.id, orientation: parsed.orientation };
}
