import { useEffect, useState } from "react";
import { createPortal } from "react-dom";
import type { Toast as ToastData } from "~/server/http/session.server";

const STYLES: Record<ToastData["kind"], string> = {
  success: "border-emerald-600 bg-emerald-50 text-emerald-900",
  error: "border-red-600 bg-red-50 text-red-900",
  info: "border-zinc-500 bg-white text-zinc-900",
};

/**
 * Where toasts sit. In the back office: the bottom of a phone's screen (above its safe area), the
 * bottom right corner of a wider one; at the top they covered the admin tabs and the section just
 * saved, which a save scrolls to. In the shop, a phone's toast sits just under the sticky header
 * (h-14 and its border) instead: at the bottom it covered the button a page ends with (the pay
 * button, 「ホームへ戻る」, the order form's bar) and the footer's links for 5 s, and without JS until
 * closed. Under the header's layer (z-30), so a menu opened from the header lies over the toast.
 */
const CORNER =
  "pointer-events-none fixed sm:inset-x-auto sm:top-auto sm:right-4 sm:bottom-[calc(env(safe-area-inset-bottom)+1rem)] sm:w-[420px] print:hidden";
const PLACES = {
  backOffice: `${CORNER} inset-x-3 bottom-[calc(env(safe-area-inset-bottom)+0.75rem)] z-50`,
  shop: `${CORNER} inset-x-3 top-16 z-20`,
};
type Place = keyof typeof PLACES;

/**
 * The one toast of this page view, rendered by the server (so it shows without JS). Its close
 * button is a <details> summary, so it closes without JS too; with JS it also closes itself after
 * 5 s (the `toast-life` animation in tailwind.css, paused while pointed at or focused). The region
 * is always in the page, so screen readers announce a toast that arrives after a JS form post.
 */
export function Toast({ toast, place }: { toast: ToastData | null; place: Place }) {
  // A new toast (even with the same words, after a second save) is a new element with its own time.
  const [shown, setShown] = useState({ toast, serial: 0 });
  if (shown.toast !== toast) setShown({ toast, serial: shown.serial + 1 });
  return (
    <div className={PLACES[place]}>
      {toast ? <ToastCard key={shown.serial} toast={toast} place={place} /> : null}
    </div>
  );
}

function ToastCard({ toast, place }: { toast: ToastData; place: Place }) {
  const [gone, setGone] = useState(false);
  const dialog = useOpenModalDialog();
  if (gone) return null;
  const card = (
    <details
      open
      onToggle={(event) => {
        if (!event.currentTarget.open) setGone(true);
      }}
      onAnimationEnd={(event) => {
        if (event.target === event.currentTarget) setGone(true);
      }}
      className={`toast-life pointer-events-auto relative rounded-xl border-l-4 py-3 pr-11 pl-4 shadow-lg [&:not([open])]:hidden ${STYLES[toast.kind]}`}
    >
      <summary
        aria-label="閉じる"
        className="absolute top-2 right-2 flex h-8 w-8 cursor-pointer list-none items-center justify-center rounded text-current/70 hover:bg-black/5 [&::-webkit-details-marker]:hidden"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
          <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
        </svg>
      </summary>
      <div role={toast.kind === "error" ? "alert" : "status"}>
        <p className="font-semibold">{toast.title}</p>
        {toast.description ? <p className="mt-0.5 text-sm">{toast.description}</p> : null}
      </div>
    </details>
  );
  // A modal dialog puts the rest of the page under its backdrop and makes it inert: the toast
  // goes into the dialog (still fixed to the screen's corner) to stay visible and closable.
  return dialog ? createPortal(<div className={PLACES[place]}>{card}</div>, dialog) : card;
}

/** The modal <dialog> open on top, if any (JS only: a dialog opens with showModal()). */
function useOpenModalDialog(): HTMLDialogElement | null {
  const [dialog, setDialog] = useState<HTMLDialogElement | null>(null);
  useEffect(() => {
    const find = () =>
      setDialog(
        [...document.querySelectorAll("dialog[open]")]
          .filter((element): element is HTMLDialogElement => element.matches(":modal"))
          .pop() ?? null,
      );
    find();
    const observer = new MutationObserver(find);
    observer.observe(document.body, { subtree: true, childList: true, attributeFilter: ["open"] });
    return () => observer.disconnect();
  }, []);
  return dialog;
}
