import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { FieldLabel } from "~/components/forms";
import { newContestSchema } from "~/lib/schemas/contest-schemas";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { useShopForm } from "~/lib/hooks/use-shop-form";
import { validateWith } from "~/lib/schemas/validate-with";

/** The one-field form of 新規大会追加, used on its own page (no JS) and in the dialog (JS). */
export function NewContestFields({
  lastResult,
  pending,
  fetcher,
}: {
  lastResult?: SubmissionResult<string[]> | null;
  pending: boolean;
  fetcher?: ReturnType<typeof useFetcher>;
}) {
  // Checked on submit only: the field has focus when the dialog opens, and leaving it to close the
  // dialog should not flash an error.
  const [form, fields] = useShopForm({
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
    onValidate: validateWith(newContestSchema),
  });
  const FormComponent = fetcher ? fetcher.Form : Form;
  return (
    <FormComponent method="post" action="/admin/contests/new" {...getFormProps(form)} className="space-y-4">
      <div>
        <FieldLabel htmlFor={fields.name.id}>大会名</FieldLabel>
        <input
          {...getInputProps(fields.name, { type: "text" })}
          placeholder="例: 第10回 市民ダンスフェスティバル"
          className="field-input"
          autoFocus
        />
        {fields.name.errors ? (
          <p id={fields.name.errorId} role="alert" className="field-error">
            入力エラー: {fields.name.errors[0]}
          </p>
        ) : null}
        {form.errors ? (
          <p role="alert" className="field-error">
            {form.errors[0]}
          </p>
        ) : null}
      </div>
      <button type="submit" className="btn-primary w-full" disabled={pending}>
        {pending ? "追加中..." : "追加"}
      </button>
    </FormComponent>
  );
}

/** With JS, 新規大会追加 opens this dialog instead of going to the form's page. */
export function NewContestDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (open) ref.current?.showModal();
    else ref.current?.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby="new-contest-title"
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl p-0 shadow-2xl backdrop:bg-black/40"
    >
      <div className="p-5">
        <div className="mb-4 flex items-center justify-between">
          <h2 id="new-contest-title" className="text-lg font-bold">
            新規大会追加
          </h2>
          <button
            type="button"
            onClick={onClose}
            className="rounded p-1 text-zinc-500 hover:bg-zinc-100"
            aria-label="閉じる"
          >
            ✕
          </button>
        </div>
        {/* Mounted only while open: each opening starts with an empty form and its own fetcher. */}
        {open ? <NewContestDialogForm onAdded={onClose} /> : null}
      </div>
    </dialog>
  );
}

function NewContestDialogForm({ onAdded }: { onAdded: () => void }) {
  const fetcher = useFetcher<SubmissionResult<string[]>>();
  const pending = useIsPending({ fetcher });
  // A success redirects to the list, a navigation that gives the location a new key; a refusal
  // answers in place. The fetcher's states are no sign to wait for: Remix hands them to React in
  // transitions, and on a busy machine "submitting" can be passed over without being drawn (the
  // dialog then stayed open after a success).
  const { key } = useLocation();
  const openedAt = useRef(key);
  useEffect(() => {
    if (key !== openedAt.current) onAdded();
  }, [key, onAdded]);
  return <NewContestFields fetcher={fetcher} lastResult={fetcher.data ?? null} pending={pending} />;
}
