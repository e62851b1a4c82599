import { useEffect, useState, type FormEvent } from "react";
import type { SubmissionResult } from "@conform-to/react";

type Submitter = HTMLInputElement | HTMLButtonElement | null;
/** A form's check in the browser: conform's submission from `parseForm`, as client-validators give it. */
type Check = (context: { formData: FormData; submitter: Submitter }) => {
  reply: () => SubmissionResult<string[]>;
};
type Errors = Record<string, string[] | null | undefined>;

/**
 * A form checked only when it is sent (the order form, the 合言葉), without conform's useForm:
 * its form state and event handling are about 9 KB gzip, which the order form's page would load
 * before it is ready on a phone, only to show the errors of a post. This shows the same errors the
 * same way: the server's reply (JS on or off), or the browser's check of the same schema at
 * submit (`check`, from useDeferredValidation), which keeps a refused post from leaving; and,
 * as conform does, it moves the focus to the first field in error. Ids follow conform's:
 * the form's error is `${id}-error`, a field's `${id}-${name}-error`.
 */
export function useCheckedSubmit({
  id,
  lastResult,
  check,
}: {
  id: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
  check: Check | undefined;
}) {
  // The browser's check, kept until the server answers again (a new reply replaces it).
  const [checked, setChecked] = useState<{ after: typeof lastResult; errors: Errors } | null>(null);
  const errors: Errors = checked && checked.after === lastResult ? checked.errors : (lastResult?.error ?? {});

  useEffect(() => {
    if (lastResult?.status === "error") focusFirstError(id, lastResult.error ?? {});
  }, [id, lastResult]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (!check) return;
    const submitter = (event.nativeEvent as SubmitEvent).submitter as Submitter;
    const reply = check({ formData: new FormData(event.currentTarget, submitter), submitter }).reply();
    const found = reply.error ?? {};
    setChecked({ after: lastResult, errors: found });
    if (reply.status === "error") {
      event.preventDefault();
      focusFirstError(id, found);
    }
  }

  const formErrors = errors[""] ?? undefined;
  return {
    /** The form's own error (conform's `form.errors`), its id, and the props for its <Form>. */
    form: {
      id,
      errorId: `${id}-error`,
      errors: formErrors,
      props: { id, onSubmit, "aria-describedby": formErrors ? `${id}-error` : undefined },
    },
    /** A field's errors by its name in the post (`items[0].category`). */
    errorsOf: (name: string) => errors[name] ?? undefined,
    /** A field's input id and error id, as conform names them. */
    idsOf: (name: string) => ({ id: `${id}-${name}`, errorId: `${id}-${name}-error` }),
  };
}

/** As conform does after a refused post: the focus to the first field in error. */
export function focusFirstError(formId: string, errors: Errors) {
  const form = document.getElementById(formId);
  if (!(form instanceof HTMLFormElement)) return;
  for (const element of form.elements) {
    const name = element.getAttribute("name");
    if (name && errors[name]?.length && element instanceof HTMLElement) {
      element.focus();
      return;
    }
  }
}
