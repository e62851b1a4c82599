import { useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * The current tab's classes in a row of tabs wider than a phone (with `tab-fades` on the row):
 * without JavaScript the browser scrolls the row to it where it knows `scroll-initial-target`
 * (Chromium), centred; useCurrentTabInView does it everywhere with JavaScript.
 */
export const CURRENT_TAB_IN_VIEW = "[scroll-initial-target:nearest] [scroll-snap-align:center]";

/** The width of tab-fades' fades (tailwind.css): a tab under one is not in view. */
const FADE_PX = 24;

/**
 * For the scrolling box of a row of tabs: after each navigation, its current tab
 * (`aria-current="page"`) is scrolled into the box's view, centred, unless it is already clear of
 * the fades. Sideways only: the page itself stays where it is.
 */
export function useCurrentTabInView<T extends HTMLElement>() {
  const bar = useRef<T>(null);
  const { pathname, search } = useLocation();
  useEffect(() => {
    const box = bar.current;
    const tab = box?.querySelector<HTMLElement>("[aria-current=page]");
    if (!box || !tab) return;
    const left = tab.getBoundingClientRect().left - box.getBoundingClientRect().left + box.scrollLeft;
    const right = left + tab.offsetWidth;
    // Clear of the fades, but for a tab at either end of the row, which the row's padding keeps clear.
    const from = left - FADE_PX <= 0 ? 0 : left - FADE_PX;
    const to = right + FADE_PX >= box.scrollWidth ? box.scrollWidth : right + FADE_PX;
    if (from >= box.scrollLeft && to <= box.scrollLeft + box.clientWidth) return;
    box.scrollLeft = left - (box.clientWidth - tab.offsetWidth) / 2;
  }, [pathname, search]);
  return bar;
}
