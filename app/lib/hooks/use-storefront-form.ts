import { useEffect, useId, useState, type FormEvent } from "react";
import type { FieldMetadata, Submission, SubmissionResult } from "@conform-to/react";
import { focusFirstError } from "./use-checked-submit";

type Submitter = HTMLInputElement | HTMLButtonElement | null;
type Errors = Record<string, string[] | null | undefined>;
/**
 * A form's check in the browser: `parseForm`'s submission, as client-validators give it. The
 * fields are named from what the form posts (`Schema`, zod's input), as conform names them.
 */
type Validate<Schema, Value> = (context: {
  formData: FormData;
  submitter: Submitter;
}) => Submission<Schema, string[], Value>;
type Shown = {
  after: SubmissionResult<string[]> | null | undefined;
  validated: Set<string> | "all";
  errors: Errors;
};
/** A field of the form, with conform's metadata so the shop's Field components draw it. */
export type StorefrontField<Schema extends Record<string, unknown>> = FieldMetadata<
  unknown,
  Schema,
  string[]
>;
/** Every field's name, in each shape a form may post (the coupon's apply and remove). */
type FieldNames<Schema> = Schema extends unknown ? keyof Schema & string : never;

/**
 * The customer's forms (the storefront's, checkout's and the account's) with conform's behaviour
 * and without its form state in the page's first load (about 9 KB gzip, which kept
 * 注文内容の確認, the payment page and the 領収書 over their 100 KiB and /login at its edge): a
 * field is checked when the customer leaves it and, once flagged, again at each key; a send is
 * checked whole and kept from leaving while anything is wrong; the server's reply (JS on or off)
 * shows its errors and refills what was typed; the focus goes to the
 * first field in error. The check is `validate` from useDeferredValidation (the same zod schema
 * the server reads, so the same Japanese messages); until it arrives, and always without JS, the
 * server checks every post. Ids are conform's and the fields are conform's metadata, so `Field`,
 * `CheckboxField` and their aria links work unchanged. Only conform's default timing is offered
 * (check on leaving, recheck at each key), which these forms use; the admin's forms keep
 * `useShopForm` (conform's useForm).
 */
export function useStorefrontForm<Schema extends Record<string, unknown>, Value>({
  id: givenId,
  lastResult,
  defaultValue,
  validate,
}: {
  id?: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
  defaultValue?: NoInfer<Partial<Record<FieldNames<Schema>, string | undefined>>>;
  validate: Validate<Schema, Value> | undefined;
}) {
  const generatedId = useId();
  const id = givenId ?? generatedId;
  // The browser's checks since the server last answered; a new reply starts afresh from it.
  const [state, setState] = useState<Shown | null>(null);
  const shown: Shown =
    state && state.after === lastResult
      ? state
      : { after: lastResult, validated: lastResult ? "all" : new Set(), errors: lastResult?.error ?? {} };
  const errorsOf = (name: string) =>
    shown.validated === "all" || shown.validated.has(name) ? shown.errors[name] || undefined : undefined;

  useEffect(() => {
    if (lastResult?.status === "error") focusFirstError(id, lastResult.error ?? {});
  }, [id, lastResult]);

  const initial: Record<string, unknown> = lastResult?.initialValue ?? defaultValue ?? {};

  /** The whole form checked (once the check has arrived), its errors shown for `validated`. */
  function check(form: HTMLFormElement, submitter: Submitter, validated: Shown["validated"]) {
    const reply = validate?.({ formData: new FormData(form, submitter), submitter }).reply();
    setState({ after: lastResult, validated, errors: reply ? (reply.error ?? {}) : shown.errors });
    return reply;
  }

  /** The field an event is about, if it is one of this form's named fields. */
  function fieldOf(event: FormEvent<HTMLFormElement>) {
    const target = event.target;
    const isField =
      target instanceof HTMLInputElement ||
      target instanceof HTMLSelectElement ||
      target instanceof HTMLTextAreaElement;
    if (!isField || target.form !== event.currentTarget || !target.name) return null;
    if (target instanceof HTMLInputElement && ["submit", "button", "reset", "image"].includes(target.type))
      return null;
    return target.name;
  }

  function flagged(name: string) {
    return shown.validated === "all" || shown.validated.has(name);
  }

  const form = {
    id,
    errorId: `${id}-error`,
    errors: errorsOf(""),
    props: {
      id,
      // As conform: the browser's own checks (type="email") never stop a post, with JS or without,
      // so the server's Japanese message is what the customer reads.
      noValidate: true,
      "aria-describedby": errorsOf("") ? `${id}-error` : undefined,
      onBlur(event: FormEvent<HTMLFormElement>) {
        const name = fieldOf(event);
        // A flagged field is checked at each key already (conform's shouldRevalidate "onInput").
        if (!name || flagged(name)) return;
        const validated = shown.validated === "all" ? "all" : new Set([...shown.validated, name]);
        check(event.currentTarget, null, validated);
      },
      onInput(event: FormEvent<HTMLFormElement>) {
        const name = fieldOf(event);
        if (name && flagged(name)) check(event.currentTarget, null, shown.validated);
      },
      onSubmit(event: FormEvent<HTMLFormElement>) {
        const submitter = (event.nativeEvent as SubmitEvent).submitter as Submitter;
        const reply = check(event.currentTarget, submitter, "all");
        if (reply?.status === "error") {
          event.preventDefault();
          focusFirstError(id, reply.error ?? {});
        }
      },
    },
  };

  const fields = new Proxy({} as Record<FieldNames<Schema>, StorefrontField<Schema>>, {
    get(_, name) {
      if (typeof name !== "string") return undefined;
      const fieldId = `${id}-${name}`;
      const value = initial[name];
      const initialValue = typeof value === "string" ? value : undefined;
      const errors = errorsOf(name);
      const field: StorefrontField<Schema> = {
        key: undefined,
        id: fieldId,
        errorId: `${fieldId}-error`,
        descriptionId: `${fieldId}-description`,
        name,
        formId: id,
        defaultValue: initialValue,
        defaultOptions: undefined,
        defaultChecked: initialValue === "on",
        initialValue,
        value: initialValue,
        errors,
        allErrors: errors ? { [name]: errors } : {},
        valid: !errors,
        dirty: false,
      };
      return field;
    },
  });

  return [form, fields] as const;
}

/** The form itself (its id, its errors, the props for its <Form>), for a component that draws it. */
export type StorefrontForm = ReturnType<typeof useStorefrontForm>[0];
