import { useEffect, useState } from "react";

/**
 * False on the server and in the first browser render, true once React has taken over the
 * page. Controls that only work with JavaScript (drag and drop, live counters, dialogs) render
 * their plain-form fallback until then, so the page is usable before, and without, the script.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
