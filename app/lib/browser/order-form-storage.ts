/**
 * The order form's choices kept in the browser (JS on) as the parent makes them, so choices made
 * since the last button press survive leaving the page: the buttons post the form and the
 * server's draft holds it from then on, but a choice alone posts nothing. sessionStorage: the
 * tab's own, gone with it, like the guest session the draft belongs to.
 *
 * Each save names the server draft it was made on (`draftVersion`): restored only onto that same
 * draft, so choices from before a later post (another tab, the confirmation's 戻る) never cover
 * what the server holds now. Without JS nothing is stored; the draft alone holds the choices.
 */

export type StoredItem = { category: string; athleteId: number | null; formatId: number | null };

const PREFIX = "order-form:";

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    // Storage can be switched off (private modes, site settings): the form works without it.
    return null;
  }
}

function idOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : null;
}

export function saveOrderFormChoices(contestId: number, draftVersion: number, items: StoredItem[]): void {
  try {
    storage()?.setItem(`${PREFIX}${contestId}`, JSON.stringify({ draftVersion, items }));
  } catch {
    // A full or refused storage loses only this convenience.
  }
}

/**
 * The choices saved for this contest on this draft, read once when the form opens; an entry
 * made on another draft (or not readable) is dropped.
 */
export function savedOrderFormChoices(
  contestId: number,
  draftVersion: number,
  itemCount: number,
): StoredItem[] | null {
  const store = storage();
  const key = `${PREFIX}${contestId}`;
  const raw = store?.getItem(key);
  if (!store || !raw) return null;
  const items = parseSaved(raw, draftVersion, itemCount);
  if (!items) store.removeItem(key);
  return items;
}

function parseSaved(raw: string, draftVersion: number, itemCount: number): StoredItem[] | null {
  try {
    const saved: unknown = JSON.parse(raw);
    if (typeof saved !== "object" || saved === null) return null;
    const { draftVersion: version, items } = saved as { draftVersion?: unknown; items?: unknown };
    if (version !== draftVersion || !Array.isArray(items) || items.length !== itemCount) return null;
    return items.map((item: unknown) => {
      const fields = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
      return {
        category: typeof fields.category === "string" ? fields.category : "",
        athleteId: idOrNull(fields.athleteId),
        formatId: idOrNull(fields.formatId),
      };
    });
  } catch {
    return null;
  }
}

/**
 * What the form holds once the page has come to life: the choices the parent already made on this
 * page (before its script ran, they differ from the server's draft) stay as they are; otherwise
 * those saved on an earlier visit to this draft are put back; null when neither differs from the
 * draft. Decided once, before any choice on the page is handled, so what this page saves is never
 * read back as an earlier visit's and put over a choice made since.
 */
export function choicesOnArrival(
  onPage: readonly StoredItem[],
  draft: readonly StoredItem[],
  saved: StoredItem[] | null,
): { from: "page" | "saved"; items: StoredItem[] } | null {
  if (!sameChoices(onPage, draft)) return { from: "page", items: [...onPage] };
  return saved && !sameChoices(saved, draft) ? { from: "saved", items: saved } : null;
}

function sameChoices(a: readonly StoredItem[], b: readonly StoredItem[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (item, index) =>
        item.category === b[index]?.category &&
        item.athleteId === b[index]?.athleteId &&
        item.formatId === b[index]?.formatId,
    )
  );
}

/** After an order is made: no contest's saved choices are restored onto the next order. */
export function clearOrderFormChoices(): void {
  const store = storage();
  if (!store) return;
  for (const key of Object.keys(store)) if (key.startsWith(PREFIX)) store.removeItem(key);
}
