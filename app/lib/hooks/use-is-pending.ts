import { useFormAction, useNavigation, type Fetcher, type Navigation } from "@remix-run/react";

/** Which post or link counts as busy (every one of them, when none is given). */
export type PendingFilters = {
  /** Only a post whose form data carries this `intent` (the action's switch) counts. */
  intent?: string;
  /**
   * Only a post to this action counts, resolved as `<Form action>` resolves it (so `"?intent=upload"`
   * means this route's action with that search), because the navigation reports the resolved URL.
   */
  formAction?: string;
  /** Only a post with this method counts ("post", "delete", …; either case). */
  formMethod?: string;
  /**
   * "pending" (the default): submitting or loading the page that follows; "submitting": only while
   * the form is on its way (a busy label that should not linger while the next page loads);
   * "loading": only while a page's data loads.
   */
  state?: "pending" | "submitting" | "loading";
  /**
   * Only a link to this path counts (not a form post, nor the reload after one): for a page that
   * shows its own "loading" while its link is being followed. Not for a fetcher (it follows no link).
   */
  to?: string;
};

/**
 * The page's navigation by default; with `fetcher`, that fetcher's post instead (a form that posts
 * through `useFetcher` and stays on the page). The filters mean the same for both.
 */
export type PendingOptions =
  | (PendingFilters & { fetcher?: undefined })
  | (Omit<PendingFilters, "to"> & { fetcher: Fetcher<unknown>; to?: never });

/**
 * Whether the page's navigation (or the given fetcher's post) is on its way, optionally only the one
 * a given form or link starts. One place decides what "busy" means, so a busy label and a disabled
 * button agree across the shop; a comparison with `navigation.state` or `fetcher.state` outside this
 * hook is refused by ESLint.
 *
 *   const busy = useIsPending();                                  // any post or link
 *   const saving = useIsPending({ intent: "category-save" });     // one of several forms
 *   const paying = useIsPending({ state: "submitting" });         // not while the next page loads
 *   const sending = useIsPending({ fetcher });                    // a useFetcher form's post
 */
export function useIsPending(options: PendingOptions = {}) {
  const navigation = useNavigation();
  // Called unconditionally (a hook); only compared when the caller named an action.
  const resolvedAction = useFormAction(options.formAction);
  return isPending(options.fetcher ?? navigation, resolvedAction, options);
}

/** The rule itself, apart from the router so a test can hand it navigations and fetchers. */
export function isPending(
  navigation: Navigation | Fetcher<unknown>,
  resolvedAction: string,
  { intent, formAction, formMethod, state = "pending", to }: PendingFilters,
) {
  const inState = state === "pending" ? navigation.state !== "idle" : navigation.state === state;
  if (!inState) return false;
  if (intent !== undefined && navigation.formData?.get("intent") !== intent) return false;
  if (formAction !== undefined && navigation.formAction !== resolvedAction) return false;
  if (formMethod !== undefined && navigation.formMethod?.toUpperCase() !== formMethod.toUpperCase())
    return false;
  if (to !== undefined) {
    // A fetcher has no location: it never follows a link.
    if (!("location" in navigation) || navigation.location?.pathname !== to) return false;
    if (navigation.formData !== undefined) return false;
  }
  return true;
}
