/**
 * How a parent saves a downloaded video to her phone's photos, in the shop's words: shown on the
 * download page (with a figure per step) and repeated in the mail that offers a download again.
 * On an iPhone a video downloaded in Safari lands in ファイル, not 写真, which is where parents
 * most often get lost; on Android it reaches the gallery by itself.
 */

export type Phone = "iphone" | "android";

export const PHONES: Phone[] = ["iphone", "android"];

/** What a step's figure shows (SaveStepFigure draws it): the button, the app or the menu to tap. */
export type SaveStepFigure =
  "download-button" | "download-confirm" | "files-app" | "share" | "save-video" | "gallery";

export type SaveStep = { text: string; figure: SaveStepFigure };

export const SAVE_STEPS: Record<Phone, { name: string; browser: string; steps: SaveStep[] }> = {
  iphone: {
    name: "iPhone",
    browser: "Safari",
    steps: [
      {
        text: "Safariでダウンロードページを開き、「スマホ用」のボタンをタップします。",
        figure: "download-button",
      },
      {
        text: "「ダウンロード」をタップします。終わるまでページを閉じずにお待ちください。",
        figure: "download-confirm",
      },
      {
        text: "「ファイル」アプリを開き、「ダウンロード」フォルダの動画をタップします。",
        figure: "files-app",
      },
      { text: "左下の共有ボタン（四角から上向きの矢印）をタップします。", figure: "share" },
      { text: "「ビデオを保存」をタップすると、「写真」アプリに保存されます。", figure: "save-video" },
    ],
  },
  android: {
    name: "Android",
    browser: "Chrome",
    steps: [
      {
        text: "Chromeでダウンロードページを開き、「スマホ用」のボタンをタップします。",
        figure: "download-button",
      },
      {
        text: "「ダウンロード」の確認が出たら「ダウンロード」をタップします。終わると画面の下に「開く」が出ます。",
        figure: "download-confirm",
      },
      {
        text: "動画は「ギャラリー」や「フォト」アプリの「Download」フォルダに入ります。見つからないときはChromeのメニュー（︙）→「ダウンロード」から開けます。",
        figure: "gallery",
      },
    ],
  },
};

/**
 * The visitor's phone, read from her browser's User-Agent on the server (so the page is drawn with
 * her steps first without JavaScript); null for a computer or a browser that does not say. An iPad
 * on iPadOS calls itself a Mac and gets the default order, iPhone first, which also fits it.
 */
export function phoneOf(userAgent: string | null): Phone | null {
  if (!userAgent) return null;
  if (/iPhone|iPad|iPod/.test(userAgent)) return "iphone";
  if (/Android/.test(userAgent)) return "android";
  return null;
}

/** The phones in the order the page shows them: the visitor's first, iPhone first when unknown. */
export function phonesFor(phone: Phone | null): Phone[] {
  return phone === "android" ? ["android", "iphone"] : ["iphone", "android"];
}

/** The steps as plain text for a mail: each phone with its numbered steps. */
export function saveStepsText(): string {
  return PHONES.map((phone) => {
    const { name, browser, steps } = SAVE_STEPS[phone];
    return [
      `【${name}（${browser}）で写真に保存するには】`,
      ...steps.map((step, i) => `${i + 1}. ${step.text}`),
    ].join("\n");
  }).join("\n\n");
}
