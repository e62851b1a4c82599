import type { ReactElement } from "react";
import { phonesFor, SAVE_STEPS, type Phone, type SaveStepFigure } from "~/lib/rules/save-to-phone";

/**
 * スマホへの保存方法 on the download page: the steps for iPhone and Android, each folded in a
 * <details> so the page stays short; the visitor's phone (read on the server from her browser)
 * first and open, the other closed. Works the same without JavaScript.
 */
export function SaveToPhoneHelp({ phone }: { phone: Phone | null }) {
  return (
    <section id="save-help" aria-labelledby="save-help-title" className="mt-8 scroll-mt-4">
      <h2 id="save-help-title" className="text-lg font-bold">
        スマホへの保存方法
      </h2>
      <p className="mt-1 text-sm text-zinc-600">
        スマホには容量の小さい「スマホ用」がおすすめです。ボタンに表示されたサイズ（MB）をご確認のうえ、Wi-Fiでのダウンロードをおすすめします。
      </p>
      <div className="mt-3 space-y-3">
        {phonesFor(phone).map((each) => {
          const { name, browser, steps } = SAVE_STEPS[each];
          return (
            <details
              key={each}
              open={each === phone}
              className="group rounded-xl border border-zinc-200 bg-white shadow-sm"
            >
              <summary className="flex cursor-pointer items-center justify-between gap-2 px-4 py-3 font-semibold">
                <span>
                  {name}（{browser}）の場合
                  {each === phone ? (
                    <span className="ml-2 inline-block rounded-full bg-red-50 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-red-800">
                      お使いのスマホ
                    </span>
                  ) : null}
                </span>
                <span aria-hidden="true" className="text-zinc-500 transition-transform group-open:rotate-180">
                  ▾
                </span>
              </summary>
              <ol className="space-y-3 border-t border-zinc-100 px-4 py-3">
                {steps.map((step, index) => (
                  <li key={step.figure} className="flex items-start gap-3 text-sm leading-relaxed">
                    <StepFigure figure={step.figure} />
                    <p>
                      <span className="mr-1 font-bold text-red-700">{index + 1}.</span>
                      {step.text}
                    </p>
                  </li>
                ))}
              </ol>
            </details>
          );
        })}
      </div>
    </section>
  );
}

/** A small drawing of what the step taps, inside a phone's outline; the words beside it say it all. */
function StepFigure({ figure }: { figure: SaveStepFigure }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 40 56"
      className="h-14 w-10 shrink-0"
      fill="none"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <rect x="2" y="2" width="36" height="52" rx="6" className="fill-zinc-50 stroke-zinc-400" />
      <rect x="15" y="5" width="10" height="2" rx="1" className="fill-zinc-300" />
      {FIGURES[figure]}
    </svg>
  );
}

const FIGURES: Record<SaveStepFigure, ReactElement> = {
  // A button with a downward arrow, as the page's own.
  "download-button": (
    <>
      <rect x="7" y="22" width="26" height="12" rx="3" className="fill-red-600" />
      <path d="M20 25v6m-3-3 3 3 3-3" className="stroke-white" />
    </>
  ),
  // The browser's question, its answer in blue.
  "download-confirm": (
    <>
      <rect
        x="6"
        y="18"
        width="28"
        height="20"
        rx="3"
        className="fill-white stroke-zinc-400"
        strokeWidth="1.5"
      />
      <path d="M10 24h20" className="stroke-zinc-300" />
      <rect x="10" y="29" width="20" height="5" rx="2" className="fill-blue-600" />
    </>
  ),
  // ファイル: a blue folder.
  "files-app": <path d="M8 21h9l3 3h12v13H8z" className="fill-blue-500 stroke-blue-600" strokeWidth="1.5" />,
  // iOS's share button: a box and an arrow up out of it.
  share: (
    <>
      <path d="M15 26h-3v12h16V26h-3" className="stroke-blue-600" />
      <path d="M20 32V18m-4 4 4-4 4 4" className="stroke-blue-600" />
    </>
  ),
  // ビデオを保存: a tray with an arrow down into it.
  "save-video": (
    <>
      <path d="M11 31v6h18v-6" className="stroke-zinc-700" />
      <path d="M20 19v13m-4-4 4 4 4-4" className="stroke-zinc-700" />
    </>
  ),
  // ギャラリー / フォト: a picture with a sun and a hill.
  gallery: (
    <>
      <rect x="8" y="19" width="24" height="18" rx="3" className="fill-emerald-50 stroke-emerald-600" />
      <circle cx="15" cy="25" r="2" className="fill-amber-400" />
      <path d="M9 35l7-6 5 4 4-3 6 5" className="stroke-emerald-600" />
    </>
  ),
};
