import { Form, Link } from "@remix-run/react";
import { useEffect, useRef } from "react";

/** What 完全に削除 is about to take, and what to run once the admin confirms. */
export type PurgeTarget = { label: string; confirm: () => void };

/**
 * 完全に削除 asks first. With JS a dialog asks and its button runs the post through the row's or
 * the bar's fetcher; a click outside does not dismiss it, only the buttons do.
 */
export function PurgeDialog({ target, onClose }: { target: PurgeTarget | null; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (target && !ref.current?.open) ref.current?.showModal();
    if (!target) ref.current?.close();
  }, [target]);
  return (
    <dialog
      ref={ref}
      onCancel={onClose}
      aria-labelledby="purge-title"
      className="m-auto w-[min(26rem,calc(100vw-2rem))] rounded-2xl p-0 shadow-2xl backdrop:bg-black/40"
    >
      {target ? (
        <div className="p-5">
          <h2 id="purge-title" className="text-lg font-bold">
            本当に完全に削除しますか？
          </h2>
          <p className="mt-2 text-sm text-zinc-700">
            {target.label}を完全に削除します。この操作は取り消せません。
          </p>
          <div className="mt-5 flex justify-end gap-3">
            <button type="button" onClick={onClose} className="btn-secondary">
              キャンセル
            </button>
            <button
              type="button"
              onClick={() => {
                target.confirm();
                onClose();
              }}
              className="btn bg-red-600 text-white hover:bg-red-700"
            >
              完全に削除する
            </button>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}

/**
 * The same question without JS: a row's 完全に削除 is a link to the list with `?purge={id}`,
 * which shows this panel above the table; キャンセル is the list without it.
 */
export function PurgePanel({
  athlete,
  cancelTo,
}: {
  athlete: { id: number; athleteNumber: number; name: string };
  cancelTo: string;
}) {
  return (
    <section aria-labelledby="purge-confirm-title" className="rounded-xl border border-red-300 bg-red-50 p-4">
      <h2 id="purge-confirm-title" className="font-bold text-red-900">
        本当に完全に削除しますか？
      </h2>
      <p className="mt-1 text-sm text-red-900">
        {athlete.athleteNumber} {athlete.name} を完全に削除します。この操作は取り消せません。
      </p>
      <Form method="post" className="mt-3 flex flex-wrap gap-3">
        <input type="hidden" name="id" value={athlete.id} />
        <input type="hidden" name="confirm" value="yes" />
        <Link to={cancelTo} className="btn-secondary">
          キャンセル
        </Link>
        <button
          type="submit"
          name="intent"
          value="purge"
          className="btn bg-red-600 text-white hover:bg-red-700"
        >
          完全に削除する
        </button>
      </Form>
    </section>
  );
}
