import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  matchDeliveryFile,
  matchKey,
  parseDeliveryFileName,
  type DeliveryContest,
  type FileMatch,
} from "~/server/delivery/file-names.server";
import type { MatchAthlete } from "~/server/delivery/file-names/athlete-names.server";
import type { DeliveryStyle } from "~/server/delivery/file-names/styles.server";
import type { Orientation } from "~/lib/rules/pricing";

// The athletes of the test contests, by the id the matcher answers with.
const SATO = 1;
const YAMADA_HANAKO = 2;
const SUZUKI = 3;
const YOKOYAMA = 4;
const TATEGAWA = 5;
const HANAKO = 6;
const TAKAHASHI_21 = 7;
const TAKAHASHI_22 = 8;
const SENSHU_30 = 10;
const SENSHU_3 = 11;
const YOKOTA = 12;
const KIYOKO = 13;
const KOBAYASHI_KEN = 14;
const KOBAYASHI_MAKOTO = 15;
const ITO = 16;
const KIMURA = 17;

const athletes: MatchAthlete[] = [
  { id: SATO, athleteNumber: 1, name: "佐藤 太郎" },
  { id: YAMADA_HANAKO, athleteNumber: 12, name: "山田 花子" },
  { id: SUZUKI, athleteNumber: 13, name: "鈴木　一郎" },
  { id: YOKOYAMA, athleteNumber: 7, name: "横山 花子" },
  { id: TATEGAWA, athleteNumber: 8, name: "縦川 蓮" },
  { id: HANAKO, athleteNumber: 20, name: "花子" },
  { id: TAKAHASHI_21, athleteNumber: 21, name: "高橋 さくら" },
  { id: TAKAHASHI_22, athleteNumber: 22, name: "高橋 さくら" },
  { id: 9, athleteNumber: 123, name: "田中 陽子" },
  // Added with 選手を追加, not yet renamed.
  { id: SENSHU_30, athleteNumber: 30, name: "選手30" },
  { id: SENSHU_3, athleteNumber: 3, name: "選手3" },
  { id: YOKOTA, athleteNumber: 45, name: "よこた ゆい" },
  { id: KIYOKO, athleteNumber: 46, name: "中村 きよこ" },
  // The same number twice (a group and a solo entered by hand).
  { id: KOBAYASHI_KEN, athleteNumber: 50, name: "小林 健" },
  { id: KOBAYASHI_MAKOTO, athleteNumber: 50, name: "小林 誠" },
  { id: ITO, athleteNumber: 2026, name: "伊藤 結衣" },
  { id: KIMURA, athleteNumber: 1080, name: "木村 拓也" },
];

const TATE_YOKO: DeliveryStyle[] = [
  { name: "縦", orientation: "vertical" },
  { name: "横", orientation: "horizontal" },
];
/** The default: 縦 and 横, numbers called ゼッケン番号. */
const twoStyles: DeliveryContest = { styles: TATE_YOKO, numberLabel: "ゼッケン番号", athletes };
/** A piano recital that sells only the vertical video and numbers by 演奏順. */
const verticalOnly: DeliveryContest = {
  styles: [{ name: "縦", orientation: "vertical" }],
  numberLabel: "演奏順",
  athletes,
};
/** A stage recording sold only in landscape: its one format is named 横 (and priced as the first). */
const landscapeOnly: DeliveryContest = {
  styles: [{ name: "横", orientation: "vertical" }],
  numberLabel: "背番号",
  athletes,
};
/** Styles named for where they are watched. */
const ownNames: DeliveryContest = {
  styles: [
    { name: "スマホ用", orientation: "vertical" },
    { name: "テレビ用", orientation: "horizontal" },
  ],
  numberLabel: "エントリー番号",
  athletes,
};

const matched = (athleteId: number, orientation: Orientation): FileMatch => ({
  kind: "matched",
  athleteId,
  orientation,
});
const ambiguous = (reason: string, candidates: [number, Orientation][]): FileMatch => ({
  kind: "ambiguous",
  reason,
  candidates: candidates.map(([athleteId, orientation]) => ({ athleteId, orientation })),
});
const unmatched = (reason: string): FileMatch => ({ kind: "unmatched", reason });
const bothStyles = (athleteId: number): [number, Orientation][] => [
  [athleteId, "vertical"],
  [athleteId, "horizontal"],
];

const NO_NUMBER = "ゼッケン番号が見つかりません";
const CAMERA = "カメラが付けたファイル名のようです（ゼッケン番号がありません）";
const NO_STYLE = "スタイル（縦・横）が分かりません";
const NUMBER_AND_NAME = "ゼッケン番号と名前が一致しません";
const BOTH = "スタイルが2つ書かれています（縦・横）";

type Row = [file: string, contest: DeliveryContest, expected: FileMatch];

const table: Row[] = [
  // Half-width, the forms editors use most.
  ["12_縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_横.mp4", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["12-縦.mov", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12 横.mp4", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["12縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["13_tate.mp4", twoStyles, matched(SUZUKI, "vertical")],
  ["13_yoko.mp4", twoStyles, matched(SUZUKI, "horizontal")],
  ["13_vertical.mp4", twoStyles, matched(SUZUKI, "vertical")],
  ["13-horizontal.mov", twoStyles, matched(SUZUKI, "horizontal")],
  ["1_portrait.mp4", twoStyles, matched(SATO, "vertical")],
  ["1 landscape.mp4", twoStyles, matched(SATO, "horizontal")],
  ["12_たて.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_よこ.mp4", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["12_タテ.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_ヨコ.mp4", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["12_ﾀﾃ.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_縦型.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_横動画.mp4", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["12_縦向き動画.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_横長.mp4", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["(12)【縦】.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12・横.mp4", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  // Case and extensions.
  ["12_TATE.MP4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_Yoko.Mov", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["12_縦.webm", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_横", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["12_縦.mp4.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_縦.M4V", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["書き出し/12_横.mov", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  // Full-width.
  ["１２＿縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["１２　横.ＭＰ４", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["Ｎｏ．１２　縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["０１２－ｙｏｋｏ.mov", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  // Zero-padded.
  ["012-横.mov", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["0012_縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["007_縦.mp4", twoStyles, matched(YOKOYAMA, "vertical")],
  ["0001 yoko.mp4", twoStyles, matched(SATO, "horizontal")],
  // Markers before (or after) the number.
  ["No12 縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["No.12_横.mp4", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["no_12_tate.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["№12 縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["#12 縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["＃１２_横.mp4", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["演奏順12_yoko.mp4", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["ゼッケン12_縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["ゼッケン番号12_横.mp4", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["エントリー12_縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["Entry 12 tate.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12番_縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  // A marked number wins over a bare one (2026 is also an athlete's number here).
  ["発表会2026_No12_縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  // With the athlete's name.
  ["12_山田花子_縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_山田 花子_横.mp4", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["山田花子 横.mov", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["山田_花子_縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["山田花子縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_山田花子さん_横.mp4", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["12_山田_縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["鈴木一郎_tate.mp4", twoStyles, matched(SUZUKI, "vertical")],
  // 花子 is one athlete's whole name and part of two others': the whole name wins, and 山田花子 is not 花子.
  ["花子_縦.mp4", twoStyles, matched(HANAKO, "vertical")],
  ["花子ちゃん_横.mp4", twoStyles, matched(HANAKO, "horizontal")],
  // Names still named 選手{n}: 選手3 is not in 選手30.
  ["選手30_縦.mp4", twoStyles, matched(SENSHU_30, "vertical")],
  ["選手3_横.mp4", twoStyles, matched(SENSHU_3, "horizontal")],
  ["30_選手30_縦.mp4", twoStyles, matched(SENSHU_30, "vertical")],
  // Style characters inside names are not styles.
  ["横山花子_縦.mp4", twoStyles, matched(YOKOYAMA, "vertical")],
  ["7_横山花子_縦.mp4", twoStyles, matched(YOKOYAMA, "vertical")],
  ["横山花子横.mp4", twoStyles, matched(YOKOYAMA, "horizontal")],
  ["横山花子.mp4", twoStyles, ambiguous(NO_STYLE, bothStyles(YOKOYAMA))],
  ["縦川蓮_横.mp4", twoStyles, matched(TATEGAWA, "horizontal")],
  ["8_縦川_横.mp4", twoStyles, matched(TATEGAWA, "horizontal")],
  ["縦川.mp4", twoStyles, ambiguous(NO_STYLE, bothStyles(TATEGAWA))],
  ["よこたゆい_たて.mp4", twoStyles, matched(YOKOTA, "vertical")],
  ["46_きよこ_たて.mp4", twoStyles, matched(KIYOKO, "vertical")],
  ["7_横山花子.mp4", verticalOnly, matched(YOKOYAMA, "vertical")],
  // Two styles on sale and none written.
  ["12.mp4", twoStyles, ambiguous(NO_STYLE, bothStyles(YAMADA_HANAKO))],
  ["No.13.mov", twoStyles, ambiguous(NO_STYLE, bothStyles(SUZUKI))],
  // Both style words.
  ["12_縦_横.mp4", twoStyles, ambiguous(BOTH, bothStyles(YAMADA_HANAKO))],
  ["12_tate_yoko.mp4", twoStyles, ambiguous(BOTH, bothStyles(YAMADA_HANAKO))],
  ["12_縦横.mp4", twoStyles, ambiguous(BOTH, bothStyles(YAMADA_HANAKO))],
  ["12_縦_横.mp4", verticalOnly, ambiguous(BOTH, [[YAMADA_HANAKO, "vertical"]])],
  [
    "12_スマホ用_横.mp4",
    ownNames,
    ambiguous("スタイルが2つ書かれています（スマホ用・テレビ用）", bothStyles(YAMADA_HANAKO)),
  ],
  // A contest that sells one style.
  ["12.mp4", verticalOnly, matched(YAMADA_HANAKO, "vertical")],
  ["0012.MOV", verticalOnly, matched(YAMADA_HANAKO, "vertical")],
  ["演奏順12.mp4", verticalOnly, matched(YAMADA_HANAKO, "vertical")],
  ["12_縦.mp4", verticalOnly, matched(YAMADA_HANAKO, "vertical")],
  ["12_横.mp4", verticalOnly, unmatched("この大会では横の動画を販売していません")],
  ["12_landscape.mp4", verticalOnly, unmatched("この大会では横の動画を販売していません")],
  ["99.mp4", verticalOnly, unmatched("演奏順 99 の選手がいません")],
  [".mp4", verticalOnly, unmatched("演奏順が見つかりません")],
  ["12.mp4", landscapeOnly, matched(YAMADA_HANAKO, "vertical")],
  ["12_横.mp4", landscapeOnly, matched(YAMADA_HANAKO, "vertical")],
  ["12_yoko.mp4", landscapeOnly, matched(YAMADA_HANAKO, "vertical")],
  ["背番号12.mp4", landscapeOnly, matched(YAMADA_HANAKO, "vertical")],
  ["12_縦.mp4", landscapeOnly, unmatched("この大会では縦の動画を販売していません")],
  // The contest's own style names.
  ["12_スマホ用.mp4", ownNames, matched(YAMADA_HANAKO, "vertical")],
  ["12_テレビ用.mp4", ownNames, matched(YAMADA_HANAKO, "horizontal")],
  ["12 ﾃﾚﾋﾞ用.mov", ownNames, matched(YAMADA_HANAKO, "horizontal")],
  ["山田花子（スマホ用）.mp4", ownNames, matched(YAMADA_HANAKO, "vertical")],
  ["12_縦.mp4", ownNames, matched(YAMADA_HANAKO, "vertical")],
  ["12_横.mp4", ownNames, matched(YAMADA_HANAKO, "horizontal")],
  ["エントリー番号12_テレビ用.mp4", ownNames, matched(YAMADA_HANAKO, "horizontal")],
  ["12.mp4", ownNames, ambiguous("スタイル（スマホ用・テレビ用）が分かりません", bothStyles(YAMADA_HANAKO))],
  ["99_スマホ用.mp4", ownNames, unmatched("エントリー番号 99 の選手がいません")],
  // Cameras and junk.
  ["IMG_2034.MOV", twoStyles, unmatched(CAMERA)],
  ["IMG_2034 縦.MOV", twoStyles, unmatched(CAMERA)],
  ["DSC01234.mp4", twoStyles, unmatched(CAMERA)],
  ["MVI_1234.MOV", twoStyles, unmatched(CAMERA)],
  ["C0001.MP4", twoStyles, unmatched(CAMERA)],
  ["GH011234.MP4", twoStyles, unmatched(CAMERA)],
  ["VID_20261123_193045.mp4", twoStyles, unmatched(CAMERA)],
  ["PXL_20261123_123456789.mp4", twoStyles, unmatched(CAMERA)],
  ["IMG_2034_12_縦.MOV", twoStyles, unmatched(CAMERA)],
  ["IMG_2034_No12_縦.MOV", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["IMG_2034_山田花子_横.MOV", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["final_v2.mp4", twoStyles, unmatched(NO_NUMBER)],
  ["無題.mp4", twoStyles, unmatched(NO_NUMBER)],
  [".mp4", twoStyles, unmatched(NO_NUMBER)],
  ["1080p.mp4", twoStyles, unmatched(NO_NUMBER)],
  ["4K_60fps.mp4", twoStyles, unmatched(NO_NUMBER)],
  ["untitled", twoStyles, unmatched(NO_NUMBER)],
  ["縦.mp4", twoStyles, unmatched(NO_NUMBER)],
  // Dates, resolutions, versions and copies next to the number.
  ["20261123_12_縦_1080p.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["2026-11-23 12 横.mov", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["2026.11.23_No.12_縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["20261123_193045_12_横.mp4", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["11月23日_12_横.mp4", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["12_縦_1920x1080_60fps.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_縦_4K.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_縦_v2.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_横_final_ver3.mov", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["12_縦 (1).mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["第3部_12_縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_縦_h264.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_縦_2160p60.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_縦_29.97fps.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_縦_30s.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_縦_ver.2.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_縦 のコピー 2.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["12_横 copy 3.mov", twoStyles, matched(YAMADA_HANAKO, "horizontal")],
  ["12_縦_テイク3.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  ["video_0012_縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  // A bare 1080 is a number (an athlete has it); 1080p is not.
  ["1080_縦.mp4", twoStyles, matched(KIMURA, "vertical")],
  // Two numbers: not a guess, unless the name settles it.
  [
    "12_13_縦.mp4",
    twoStyles,
    ambiguous("ゼッケン番号が複数あります（12・13）", [
      [YAMADA_HANAKO, "vertical"],
      [SUZUKI, "vertical"],
    ]),
  ],
  [
    "No12_No13_横.mp4",
    twoStyles,
    ambiguous("ゼッケン番号が複数あります（12・13）", [
      [YAMADA_HANAKO, "horizontal"],
      [SUZUKI, "horizontal"],
    ]),
  ],
  [
    "2026_12_縦.mp4",
    twoStyles,
    ambiguous("ゼッケン番号が複数あります（2026・12）", [
      [ITO, "vertical"],
      [YAMADA_HANAKO, "vertical"],
    ]),
  ],
  [
    "12_99_縦.mp4",
    twoStyles,
    ambiguous("ゼッケン番号が複数あります（12・99）", [[YAMADA_HANAKO, "vertical"]]),
  ],
  ["98_99_縦.mp4", twoStyles, unmatched("ゼッケン番号が複数あります（98・99）")],
  ["12_13_山田花子_縦.mp4", twoStyles, matched(YAMADA_HANAKO, "vertical")],
  // The number and the name disagree.
  [
    "13_山田花子_縦.mp4",
    twoStyles,
    ambiguous(NUMBER_AND_NAME, [
      [SUZUKI, "vertical"],
      [YAMADA_HANAKO, "vertical"],
    ]),
  ],
  ["99_山田花子_横.mp4", twoStyles, ambiguous(NUMBER_AND_NAME, [[YAMADA_HANAKO, "horizontal"]])],
  [
    "1_山田_縦.mp4",
    twoStyles,
    ambiguous(NUMBER_AND_NAME, [
      [SATO, "vertical"],
      [YAMADA_HANAKO, "vertical"],
    ]),
  ],
  [
    "13_山田花子.mp4",
    twoStyles,
    ambiguous(`${NUMBER_AND_NAME}。${NO_STYLE}`, [...bothStyles(SUZUKI), ...bothStyles(YAMADA_HANAKO)]),
  ],
  ["99_縦.mp4", twoStyles, unmatched("ゼッケン番号 99 の選手がいません")],
  // Same names and same numbers.
  [
    "高橋さくら_縦.mp4",
    twoStyles,
    ambiguous("名前が一致する選手が複数います", [
      [TAKAHASHI_21, "vertical"],
      [TAKAHASHI_22, "vertical"],
    ]),
  ],
  ["22_高橋さくら_縦.mp4", twoStyles, matched(TAKAHASHI_22, "vertical")],
  [
    "小林_横.mp4",
    twoStyles,
    ambiguous("名前が一致する選手が複数います", [
      [KOBAYASHI_KEN, "horizontal"],
      [KOBAYASHI_MAKOTO, "horizontal"],
    ]),
  ],
  [
    "50_縦.mp4",
    twoStyles,
    ambiguous("ゼッケン番号 50 の選手が複数います", [
      [KOBAYASHI_KEN, "vertical"],
      [KOBAYASHI_MAKOTO, "vertical"],
    ]),
  ],
  ["50_小林誠_縦.mp4", twoStyles, matched(KOBAYASHI_MAKOTO, "vertical")],
];

describe("matching a delivery file by its name (server/delivery/file-names)", () => {
  it("has a table of at least 60 real-world names", () => {
    expect(table.length).toBeGreaterThanOrEqual(60);
  });

  it.each(table)("%s", (file, contest, expected) => {
    expect(matchDeliveryFile(file, contest)).toEqual(expected);
  });

  // Regression: `03-tate(1).mp4` was 要確認 with 「ゼッケン番号が複数あります（3・1）」.
  it("reads a copy suffix (N) right after the name as no number, with or without the space", () => {
    for (const name of ["03-tate(1).mp4", "03-tate (1).mp4", "03-tate（１）.mp4", "03_縦(2).mov"])
      expect(matchDeliveryFile(name, twoStyles), name).toEqual(matched(SENSHU_3, "vertical"));
    expect(matchDeliveryFile("12_横(1).mp4", twoStyles)).toEqual(matched(YAMADA_HANAKO, "horizontal"));
    expect(parseDeliveryFileName("03-tate(1).mp4", TATE_YOKO)).toMatchObject({
      athleteNumber: 3,
      orientation: "vertical",
    });
    // With nothing else there, the copy's number is still the only number the name has.
    expect(matchDeliveryFile("(12).mp4", verticalOnly)).toEqual(matched(YAMADA_HANAKO, "vertical"));
  });
  it("reads a name without the athletes: number, style (the only one when none is written) and the words left", () => {
    expect(parseDeliveryFileName("12_山田花子_縦.mp4", TATE_YOKO)).toEqual({
      athleteNumber: 12,
      orientation: "vertical",
      nameText: "山田花子",
    });
    expect(
      parseDeliveryFileName("演奏順０１２.mov", [{ name: "縦", orientation: "vertical" }], "演奏順"),
    ).toEqual({
      athleteNumber: 12,
      orientation: "vertical",
      nameText: "",
    });
    // 横山 is a surname, not a style; two numbers are no number.
    expect(parseDeliveryFileName("横山花子_12_13.mp4", TATE_YOKO)).toEqual({
      athleteNumber: null,
      orientation: null,
      nameText: "横山花子",
    });
    expect(parseDeliveryFileName("山田花子縦.mp4", TATE_YOKO)).toEqual({
      athleteNumber: null,
      orientation: "vertical",
      nameText: "山田花子",
    });
    // The contest's label is a marker too.
    expect(parseDeliveryFileName("2026_出場番号7.mp4", TATE_YOKO, "出場番号").athleteNumber).toBe(7);
  });

  it("keys a match by athlete and style", () => {
    expect(matchKey(12, "vertical")).toBe("12:vertical");
    expect(matchKey(12, "horizontal")).not.toBe(matchKey(12, "vertical"));
  });
});

describe("the canonical forms always match (property)", () => {
  // A large contest whose names carry style characters and digits, none of them in the file names.
  const names = ["横山 花子", "縦川 蓮", "よこた ゆい", "山田 花子"];
  const everyone: MatchAthlete[] = Array.from({ length: 9999 }, (_, i) => ({
    id: 100_000 + i + 1,
    athleteNumber: i + 1,
    name: i % 5 === 4 ? `選手${i + 1}` : (names[i % 5] ?? ""),
  }));
  const contest: DeliveryContest = { styles: TATE_YOKO, numberLabel: "ゼッケン番号", athletes: everyone };
  const pad = (n: number) => String(n).padStart(4, "0");
  const fullWidth = (text: string) =>
    text.replace(/[0-9]/g, (d) => String.fromCharCode(d.charCodeAt(0) + 0xfee0));
  const styleWords: [string, Orientation][] = [
    ["縦", "vertical"],
    ["横", "horizontal"],
  ];

  it("for any athlete number 1..9999 and either style", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9999 }),
        fc.constantFrom(...styleWords),
        (n, [word, orientation]) => {
          const forms = [
            `${n}_${word}.mp4`,
            `${pad(n)}-${word}.mov`,
            `No${n} ${word}.mp4`,
            `${fullWidth(String(n))}＿${word}.mp4`,
            `${fullWidth(pad(n))}\u3000${word}.MP4`,
          ];
          for (const form of forms) {
            expect(matchDeliveryFile(form, contest), form).toEqual(matched(100_000 + n, orientation));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("any name at all gives an answer: never a throw, a match only to the contest's athletes and styles", () => {
    const ids = new Set(athletes.map((a) => a.id));
    const pieces = fc.constantFrom(
      "12",
      "０１２",
      "縦",
      "横",
      "yoko",
      "No.",
      "#",
      "_",
      " ",
      "山田花子",
      "IMG_",
      ".mp4",
      "(1)",
    );
    const names = fc.oneof(
      fc.string({ unit: "binary", maxLength: 80 }),
      fc.array(pieces, { maxLength: 8 }).map((parts) => parts.join("")),
    );
    fc.assert(
      fc.property(
        names,
        fc.constantFrom(twoStyles, verticalOnly, landscapeOnly, ownNames),
        (name, contest) => {
          const result = matchDeliveryFile(name, contest);
          const sold = contest.styles.map((s) => s.orientation);
          if (result.kind === "matched") {
            expect(ids.has(result.athleteId)).toBe(true);
            expect(sold).toContain(result.orientation);
          } else {
            expect(result.reason).toMatch(/\S/);
          }
          if (result.kind === "ambiguous") {
            expect(result.candidates.length).toBeGreaterThan(0);
            for (const c of result.candidates) expect(ids.has(c.athleteId)).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("and a bare number in a one-style contest", () => {
    const oneStyle = { ...contest, styles: [{ name: "縦", orientation: "vertical" as const }] };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), (n) => {
        expect(matchDeliveryFile(`${pad(n)}.mp4`, oneStyle)).toEqual(matched(100_000 + n, "vertical"));
      }),
      { numRuns: 200 },
    );
  });
});
