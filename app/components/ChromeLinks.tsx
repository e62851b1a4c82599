import { useNavigate } from "@remix-run/react";
import type { MouseEvent, ReactNode } from "react";

/**
 * The header's and footer's links, on every page, as plain anchors: one click handler on the
 * element around them (useChromeLinkClicks) makes a click a client-side navigation, as <Link>
 * does. Each <Link> resolves the route matches three times per render (its href, its click
 * handler's navigate and path); the chrome's 18 were about a tenth of a static page's server
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
 * The click handler for the element around ChromeLinks. It leaves alone what the browser should
 * do itself, as <Link> does: other buttons, a modifier key (new tab or window), a target, a
 * download, a link that something else already handled.
 */
export function useChromeLinkClicks() {
  const navigate = useNavigate();
  return (event: MouseEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    const anchor = event.target instanceof Element ? event.target.closest("a") : null;
    if (!anchor?.hasAttribute("data-discover") || anchor.hasAttribute("download")) return;
    if (anchor.target && anchor.target !== "_self") return;
    const url = new URL(anchor.href);
    if (url.origin !== window.location.origin) return;
    event.preventDefault();
    const to = `${url.pathname}${url.search}${url.hash}`;
    const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
    // Like a plain link (and <Link>): the page itself again replaces the history entry.
    navigate(to, { replace: to === here });
  };
}
