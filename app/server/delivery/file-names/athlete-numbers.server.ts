/**
 * The athlete numbers among a file name's words: marked (No.12, #12, 演奏順12, 12番) or bare.
 * Digits that are a size, a rate, a version or a count of something else are not numbers.
 */
import type { PreparedAthletes } from "./athlete-names.server";
import { compactText, type Token } from "./text.server";

/** Letters right after digits that make them a size or rate: 1080p, 1080i, 4k, 60fps, 24bit, 8mbps, 48khz, 1920x1080. */
const UNITS_AFTER_NUMBER = new Set("p i k fps bit kbps mbps hz khz kb mb gb s sec min x".split(" "));
/**
 * Letters right before digits (or with a dot between) that make them a version, a codec or a
 * rate: v2, ver.3, rev2, take3, mp4, h264, x264, the 1080 of 1920x1080, the 60 of 2160p60.
 */
const LETTERS_BEFORE_NON_NUMBER = new Set("v ver version rev r take tk mp h x p".split(" "));
/** Counters right after digits (第2部, 3回目, 11月23日, 2曲目, 10歳, 第2版): a number, but of something else. */
const COUNTER_AFTER_NUMBER = /^(?:部|回|年|月|日|曲|歳|才|分|秒|時|期|版|稿|枚|本|人|位)/;
/** Words right before digits that make them a take or a revision (テイク2, 修正3). */
const WORDS_BEFORE_NON_NUMBER = /(?:テイク|修正)$/;
/** Above this, digits are a clip counter, a time or a date, not an athlete number (unless an athlete has it). */
const LARGEST_LIKELY_NUMBER = 99_999;

/** Words written before the athlete number (No.12, 演奏順12, ゼッケン12, エントリー12, entry 12); `#12` is seen on the separator. */
const NUMBER_MARKERS =
  "no nr num number entry bib 番号 ゼッケン ナンバー 演奏順 出演順 出番 エントリー 順番".split(" ");
/** Japanese markers also end longer words: ゼッケン番号, 背番号, ビッグナンバー, エントリー番号. */
const JAPANESE_MARKER = /[^a-z]$/;
/** Written after the number: 12番, 12番目. */
const MARKER_AFTER_NUMBER = /^番/;

/**
 * The numbers among the tokens, marked (No.12, #12, 演奏順12, 12番) or bare; digits that are a
 * size, a rate, a version or a count of something else are skipped. Words read as part of a
 * number (markers, units) are added to `used`.
 */
export function readNumbers(
  tokens: Token[],
  numberLabel: string,
  athletes: PreparedAthletes,
  used: Set<number>,
): { marked: number[]; bare: number[] } {
  const markers = new Set(NUMBER_MARKERS);
  const label = compactText(numberLabel);
  if (label) markers.add(label);
  const japaneseMarkers = [...markers].filter((m) => JAPANESE_MARKER.test(m));

  const marked: number[] = [];
  const bare: number[] = [];
  tokens.forEach((token, i) => {
    if (token.kind !== "digits") return;
    const value = Number(token.text);
    // The words touching it (the p of 1080p, the 番 of 12番); a version word may have a dot between (ver.2).
    const next = tokens[i + 1];
    const after = next?.gap === "" ? next : undefined;
    const before = token.gap === "" ? tokens[i - 1] : undefined;
    const version = token.gap === "" || token.gap === "." ? tokens[i - 1] : undefined;
    const unitAfter = after?.kind === "latin" && UNITS_AFTER_NUMBER.has(after.text);
    const versionBefore = version?.kind === "latin" && LETTERS_BEFORE_NON_NUMBER.has(version.text);
    if (unitAfter) used.add(i + 1);
    if (versionBefore) used.add(i - 1);
    const otherNumber =
      (value > LARGEST_LIKELY_NUMBER && !athletes.byNumber.has(value)) ||
      unitAfter ||
      versionBefore ||
      (after?.kind === "word" && COUNTER_AFTER_NUMBER.test(after.text)) ||
      (before?.kind === "word" && WORDS_BEFORE_NON_NUMBER.test(before.text));
    if (otherNumber) return;

    let isMarked = token.gap.includes("#");
    // A marker may be one word or several (a label like "Bib No."): try the last one to three words.
    for (let k = 1; k <= 3 && i - k >= 0; k++) {
      const words = tokens.slice(i - k, i);
      if (words.some((w) => w.kind === "digits")) break;
      const joined = words.map((w) => w.text).join("");
      const endsWithMarker =
        k === 1 && words[0]?.kind === "word" && japaneseMarkers.some((m) => joined.endsWith(m));
      if (markers.has(joined) || endsWithMarker) {
        isMarked = true;
        for (let j = i - k; j < i; j++) used.add(j);
        break;
      }
    }
    if (after?.kind === "word" && MARKER_AFTER_NUMBER.test(after.text)) {
      isMarked = true;
      if (after.text === "番" || after.text === "番目") used.add(i + 1);
    }
    (isMarked ? marked : bare).push(value);
  });
  return { marked, bare };
}
