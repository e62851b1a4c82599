import { useEffect, useState } from "react";
import { useHydrated } from "~/lib/use-hydrated";
import type { Toast as ToastData } from "~/server/http/session.server";

const STYLES: Record<ToastData["kind"], string> = {
  success: "border-emerald-600 bg-emerald-50 text-emerald-900",
  error: "border-red-600 bg-red-50 text-red-900",
  info: "border-zinc-500 bg-white text-zinc-900",
};

/**
 * The one toast of this page view, rendered by the server (so it shows without JS).
 * With JS it closes itself after 5 s or on its close button.
 */
export function Toast({ toast }: { toast: ToastData | null }) {
  const [open, setOpen] = useState(true);
  const hydrated = useHydrated();

  useEffect(() => {
    setOpen(true);
    if (!toast) return;
    const timer = window.setTimeout(() => setOpen(false), 5000);
    return () => window.clearTimeout(timer);
  }, [toast]);

  if (!toast || !open) return null;
  return (
    <div className="pointer-events-none fixed inset-x-0 top-16 z-50 flex justify-center px-3">
      <div
        role={toast.kind === "error" ? "alert" : "status"}
        className={`pointer-events-auto flex w-full max-w-[420px] items-start gap-3 rounded-xl border-l-4 px-4 py-3 shadow-lg ${STYLES[toast.kind]}`}
      >
        <div className="min-w-0 flex-1">
          <p className="font-semibold">{toast.title}</p>
          {toast.description ? <p className="mt-0.5 text-sm">{toast.description}</p> : null}
        </div>
        {hydrated ? (
          <button
            type="button"
            onClick={() => setOpen(false)}
            className="-mr-1 rounded p-1 text-current/70 hover:bg-black/5"
            aria-label="閉じる"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
              <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
            </svg>
          </button>
        ) : null}
      </div>
    </div>
  );
}
