/**
 * Athletes' names in a file name: whole names found anywhere in it (山田花子 in 12_山田花子_縦),
 * and words left over that may be part of one (山田 for 山田花子).
 */
import { blankOut, compactText, findSpans, indexStem, onlyOne, type Span } from "./text.server";

export type MatchAthlete = { id: number; athleteNumber: number; name: string };

type PreparedAthlete = { id: number; athleteNumber: number; name: string };
export type PreparedAthletes = {
  list: PreparedAthlete[];
  byNumber: Map<number, number[]>;
  searchable: PreparedAthlete[];
};

/** A word left over fits an athlete when it is part of the name; a word in more names than this says nothing (選手, 花). */
const MOST_NAME_CANDIDATES = 5;

// A contest's athletes are compacted once, not once per file (200 files × 2,000 athletes).
const preparedCache = new WeakMap<readonly MatchAthlete[], PreparedAthletes>();

export function prepare(athletes: readonly MatchAthlete[]): PreparedAthletes {
  const cached = preparedCache.get(athletes);
  if (cached) return cached;
  const list = athletes.map((a) => ({ id: a.id, athleteNumber: a.athleteNumber, name: compactText(a.name) }));
  const byNumber = new Map<number, number[]>();
  for (const a of list) byNumber.set(a.athleteNumber, [...(byNumber.get(a.athleteNumber) ?? []), a.id]);
  // Names looked for inside file names: one character (林) or digits alone would be found by chance.
  const searchable = list.filter((a) => Array.from(a.name).length >= 2 && !/^[0-9]+$/.test(a.name));
  const prepared = { list, byNumber, searchable };
  preparedCache.set(athletes, prepared);
  return prepared;
}

/** Athletes' names standing in the stem, blanked out so that 横山花子 or 縦川 is not read as a style word. */
export function takeAthleteNames(
  stem: string,
  athletes: PreparedAthletes,
): { stem: string; namedIds: number[] } {
  const indexed = indexStem(stem);
  const hits: { id: number; span: Span }[] = [];
  for (const a of athletes.searchable) {
    if (!indexed.compact.includes(a.name)) continue;
    for (const span of findSpans(indexed, a.name)) hits.push({ id: a.id, span });
  }
  // 花子 inside 山田花子 is 山田花子's name, not 花子's.
  const length = (span: Span) => span.end - span.start;
  const longest = hits.filter(
    (h) =>
      !hits.some(
        (o) => o.span.start <= h.span.start && h.span.end <= o.span.end && length(o.span) > length(h.span),
      ),
  );
  return {
    stem: blankOut(
      stem,
      hits.map((h) => h.span),
    ),
    namedIds: [...new Set(longest.map((h) => h.id))],
  };
}

/**
 * Athletes a leftover word fits as part of their name (山田 → 山田花子). A word that is someone's
 * whole name wins when it is exactly one athlete's (花子 over 山田花子).
 */
export function partlyNamed(words: string[], athletes: PreparedAthletes): number[] {
  if (!words.length) return [];
  const whole = onlyOne(athletes.list.filter((a) => words.includes(a.name)));
  if (whole) return [whole.id];
  const fits = athletes.list.filter((a) =>
    words.some((w) => a.name === w || (Array.from(w).length >= 2 && a.name.includes(w))),
  );
  return fits.length <= MOST_NAME_CANDIDATES ? fits.map((a) => a.id) : [];
}
