/**
 * Digits in a file name that are not an athlete number: the counters cameras give, dates, times
 * of day, copy numbers and rates. They are blanked out before the numbers are read.
 *
 * The patterns start with (^|…) rather than a lookbehind, which older Safari cannot parse (the
 * matcher once ran on the matching screen too); their replacement keeps that first character.
 */

/**
 * Names cameras and phones give: IMG_1234 (iPhone), DSC01234 / DSCF1234 (Sony, Nikon, Fuji),
 * MVI_1234 (Canon), MOV_0012, VID_20261123… and PXL_2026… (Android), GOPR1234 / GH011234 (GoPro),
 * DJI_0001, MAH00012 / C0001 (Sony video), P1000123 (Panasonic). Their digits count clips, not
 * athletes.
 */
const CAMERA_NAME =
  /(^|[^a-z])(?:(?:img|dsc[fn]?|mvi|mov|vid|pxl|gopr|g[hx]\d\d|dji|mah|c)[_-]?\d{4,}|p\d{7})/g;

/** A date with separators (2026-11-23, 2026.11.23, 2026_11_23): a shooting or export date. */
const DATE_WITH_SEPARATORS =
  /(^|\D)(?:19|20)\d\d([-./_ ])(?:0?[1-9]|1[0-2])\2(?:0?[1-9]|[12]\d|3[01])(?!\d)/g;
/** An eight-digit date (20261123), with the time phones add after it (_193045, _193045123). */
const DATE_COMPACT =
  /(^|\D)(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:[_-]?\d{6}(?:\d{3})?)?(?!\d)/g;
/** A time of day with separators (19-30-45, 19.30.45). */
const TIME_OF_DAY = /(^|\D)(?:[01]?\d|2[0-3])([-:.])[0-5]\d\2[0-5]\d(?!\d)/g;
/**
 * The copy number a computer adds to a duplicate (`12_縦 (1).mp4`, and without the space when a
 * file was copied by a tool or renamed by hand: `03-tate(1).mp4`): a number only when there is no other.
 */
const COPY_SUFFIX = /\s*\((\d{1,3})\)$/;
/** What a Mac adds to a duplicate (`12_縦 のコピー 2.mp4`, `12_縦 copy 2.mp4`): never a number. */
const COPY_WORDS = /\s*(?:のコピー|コピー|copy)(?:\s+\d{1,3})?$/;
/** A rate or length with decimals (29.97fps, 2.5s, 1.5mbps): neither half is a number. */
const DECIMAL_WITH_UNIT = /(^|[^0-9.])\d+\.\d+(?=(?:fps|p|k|hz|khz|kbps|mbps|s|sec|min)(?![a-z]))/g;

/** Digits that are not athlete numbers, blanked out: copy suffixes, camera counters, dates, times and rates. */
export function takeOtherDigits(stem: string): { stem: string; camera: boolean; copyNumber: number | null } {
  const copy = COPY_SUFFIX.exec(stem);
  const withoutCopies = stem.replace(COPY_SUFFIX, " ").replace(COPY_WORDS, " ");
  const withoutCamera = withoutCopies.replace(CAMERA_NAME, "$1 ");
  return {
    stem: withoutCamera
      .replace(DATE_WITH_SEPARATORS, "$1 ")
      .replace(DATE_COMPACT, "$1 ")
      .replace(TIME_OF_DAY, "$1 ")
      .replace(DECIMAL_WITH_UNIT, "$1 "),
    camera: withoutCamera !== withoutCopies,
    copyNumber: copy?.[1] ? Number(copy[1]) : null,
  };
}
