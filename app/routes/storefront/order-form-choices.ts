import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from "react";
import {
  choicesOnArrival,
  saveOrderFormChoices,
  savedOrderFormChoices,
} from "~/lib/browser/order-form-storage";
import { positiveId } from "~/lib/rules/params";
import type { CheckoutItem } from "~/server/db/schema";

/**
 * The order form's choices in the browser (JS on): the items the form is drawn from, the choices
 * as they stand (for the live prices and the number list), and what the page does on arrival and
 * at each choice. Without JS the server's draft alone is drawn, and this does nothing.
 */

/**
 * The arrival check runs in the commit that brings the page to life, before the handler of any
 * choice: a passive effect could run after a choice made meanwhile had been saved, read it back as
 * an earlier visit's, and put it over the choices made after it (seen under load: an item kept its
 * number and style and lost its 部門). On the server, nothing runs.
 */
const useArrivalEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/** Reads the form's current values, so prices and the athlete list follow each choice at once. */
function itemsFromForm(form: HTMLFormElement, count: number): CheckoutItem[] {
  const formData = new FormData(form);
  return Array.from({ length: count }, (_, i) => ({
    category: String(formData.get(`items[${i}].category`) ?? ""),
    athleteId: positiveId(formData.get(`items[${i}].athleteId`)),
    formatId: positiveId(formData.get(`items[${i}].formatId`)),
  }));
}

export function useOrderFormChoices({
  contestId,
  serverDraft,
  draftVersion,
  refused,
}: {
  contestId: number;
  /** The server's draft, as the page was drawn from it. */
  serverDraft: CheckoutItem[];
  draftVersion: number;
  /** The choices a refused post sent back (nothing saved): the form shows them as they were. */
  refused: CheckoutItem[] | null;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  // Choices made on this draft and kept in the browser since, put back once on arrival.
  const [restored, setRestored] = useState<{ version: number; items: CheckoutItem[] } | null>(null);
  const restoredItems = !refused && restored?.version === draftVersion ? restored.items : null;
  const draft = refused ?? restoredItems ?? serverDraft;
  // A new draft from the server, or the restored choices, start the form afresh.
  const formKey = `${draftVersion}${restoredItems ? "-restored" : ""}`;
  const [edited, setEdited] = useState<{ formKey: string; items: CheckoutItem[] } | null>(null);
  const live = edited?.formKey === formKey ? edited.items : draft;

  const arrivedOn = useRef<number | null>(null);
  useArrivalEffect(() => {
    const form = formRef.current;
    if (refused || !form || arrivedOn.current === draftVersion) return;
    arrivedOn.current = draftVersion;
    const count = serverDraft.length;
    const arrival = choicesOnArrival(
      itemsFromForm(form, count),
      serverDraft,
      savedOrderFormChoices(contestId, draftVersion, count),
    );
    if (arrival?.from === "page") {
      // Chosen before the page's script ran: kept as shown, and now priced.
      setEdited({ formKey: String(draftVersion), items: arrival.items });
      saveOrderFormChoices(contestId, draftVersion, arrival.items);
    } else if (arrival) {
      setRestored({ version: draftVersion, items: arrival.items });
    }
  }, [contestId, draftVersion, serverDraft, refused]);

  function onChange(event: FormEvent<HTMLFormElement>) {
    const items = itemsFromForm(event.currentTarget, draft.length);
    setEdited({ formKey, items });
    saveOrderFormChoices(contestId, draftVersion, items);
  }

  return { formRef, draft, formKey, live, onChange };
}
