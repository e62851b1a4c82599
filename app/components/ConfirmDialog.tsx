import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";

/**
 * A modal question with a POST form (JS). Without JS the same question is a page of its
 * own (the link this replaces). A click outside does not dismiss it; only the buttons do.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  action,
  confirmLabel,
  onCancel,
  fields = {},
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  action: string;
  confirmLabel: string;
  onCancel: () => void;
  fields?: Record<string, string>;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (open && !ref.current?.open) ref.current?.showModal();
    if (!open) ref.current?.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onCancel={onCancel}
      aria-labelledby="confirm-title"
      className="m-auto w-[min(26rem,calc(100vw-2rem))] rounded-2xl p-0 shadow-2xl backdrop:bg-black/40"
    >
      {open ? (
        <div className="p-5">
          <h2 id="confirm-title" className="text-lg font-bold">
            {title}
          </h2>
          {children ? <div className="mt-2 text-sm text-zinc-700">{children}</div> : null}
          <Form method="post" action={action} className="mt-5 flex justify-end gap-3" onSubmit={onCancel}>
            {Object.entries(fields).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <button type="button" onClick={onCancel} className="btn-secondary">
              キャンセル
            </button>
            <button type="submit" className="btn bg-red-600 text-white hover:bg-red-700">
              {confirmLabel}
            </button>
          </Form>
        </div>
      ) : null}
    </dialog>
  );
}

/** The same question as a page of its own, where a link to it lands without JS. */
export function ConfirmPage({
  title,
  children,
  action,
  cancelTo,
}: {
  title: string;
  children: ReactNode;
  action: string;
  cancelTo: string;
}) {
  return (
    <section className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-2xl bg-white p-6 shadow-sm">
        <h1 className="text-xl font-bold">{title}</h1>
        {children}
        <Form method="post" action={action} className="mt-6 flex justify-end gap-3">
          <Link to={cancelTo} className="btn-secondary">
            キャンセル
          </Link>
          <button type="submit" className="btn bg-red-600 text-white hover:bg-red-700">
            削除する
          </button>
        </Form>
      </div>
    </section>
  );
}
