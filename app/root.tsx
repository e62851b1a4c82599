import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { ErrorFallback, NotFoundPage, RefusedPage } from "~/components/ErrorPages";
import { Footer } from "~/components/Footer";
import { Header } from "~/components/Header";
import { Toast } from "~/components/Toast";
import { useNonce } from "~/lib/hooks/nonce";
import { commitSession } from "~/server/http/session.server";
import { takeToast } from "~/server/http/toast.server";
import { getCurrentUser } from "~/server/auth/users.server";
import stylesheet from "~/tailwind.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [
  { title: "コンテスト動画ショップ" },
  {
    name: "description",
    content: "大会・発表会・運動会の出場者ごとの動画を、スマートフォンから簡単にご注文いただけます。",
  },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const { toast, session } = await takeToast(request);
  const user = await getCurrentUser(session);
  const headers = toast ? { "Set-Cookie": await commitSession(session) } : undefined;
  return data({ user: user ? { email: user.email, isAdmin: user.isAdmin } : null, toast }, { headers });
}

export function Layout({ children }: { children: ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  // The back-office has its own header; the storefront's chrome stays out of its way.
  const location = useLocation();
  const backOffice = /^\/admin(\/|$)/.test(location.pathname);
  const nonce = useNonce();
  return (
    <html lang="ja" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        {/* Marks the page as scripted before first paint, so JS-only refinements do not flash. */}
        <script
          nonce={nonce}
          dangerouslySetInnerHTML={{ __html: "document.documentElement.classList.add('js')" }}
        />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#c8102e" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          本文へ移動
        </a>
        {/* Drawn anew for each navigation (even to the page shown): a menu (<details>) opened before it is closed, as a page load would. */}
        {backOffice ? null : <Header key={location.key} user={rootData?.user ?? null} />}
        <Toast toast={rootData?.toast ?? null} place={backOffice ? "backOffice" : "shop"} />
        <main id="main" className="flex-1">
          {children}
        </main>
        {backOffice ? null : <Footer />}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  // The server entry's refusals (a cross-site post, a body too large) and a write that found the
  // disk full (503, http/out-of-space-answer.server.ts) say why in their data.
  if (
    isRouteErrorResponse(error) &&
    (error.status === 403 || error.status === 413 || error.status === 503) &&
    typeof error.data === "string"
  )
    return <RefusedPage status={error.status} message={error.data} />;
  if (!isRouteErrorResponse(error)) console.error(error);
  return <ErrorFallback />;
}
