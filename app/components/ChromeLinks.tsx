import { useNavigate } from "@remix-run/react";
import type { MouseEvent, ReactNode } from "react";

/**
 * The header's and footer's links, on every page, as plain anchors: one click handler on the
 * element around them (useChromeLinkClicks) makes a click a client-side navigation, as <Link>
 * does. Each <Link> resolves the route matches three times per render (its href, its click
 * handler's navigate and path); the chrome's twelve were about a tenth of a static page's server
 * CPU (`npm run bench:server`: /about 0.63× → 0.74× the minimal app with plain anchors).
 *
 * `data-discover` is what Remix's lazy route discovery looks for in the page, so the routes
 * behind these links are still fetched before they are clicked. Without JavaScript they are
 * the links they look like.
 */
export function ChromeLink({
  to,
  className,
  children,
}: {
  /** An absolute path of this site. */
  to: `/${string}`;
  className?: string;
  children: ReactNode;
}) {
  return (
    <a href={to} className={className} data-discover="true">
      {children}
    </a>
  );
}

/**
 * The click handler for the element around ChromeLinks. What the browser should do itself is
 * left to it, as <Link> does: other buttons, a modifier key (a new tab or window), a click
 * something else already handled. ChromeLinks have neither a target nor a download.
 */
export function useChromeLinkClicks() {
  const navigate = useNavigate();
  return (event: MouseEvent<HTMLElement>) => {
    const anchor = event.target instanceof Element ? event.target.closest("a[data-discover]") : null;
    const to = anchor?.getAttribute("href");
    if (!to || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    // Like a plain link (and <Link>): the page itself again replaces the history entry.
    navigate(to, { replace: to === `${location.pathname}${location.search}${location.hash}` });
  };
}
