import type { ReactNode } from "react";
import { Link } from "@remix-run/react";
import { ProblemMark } from "~/components/icons";

/** The frame of the account pages (register, login, codes, password): a centred card that fits a phone. */
export function AuthCard({
  title,
  lead,
  children,
  footer,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-8 sm:py-12">
      <div className="rounded-2xl border border-zinc-200 bg-white p-5 shadow-sm sm:p-7">
        <h1 className="text-2xl font-bold">{title}</h1>
        {lead ? <div className="mt-2 text-sm leading-relaxed text-zinc-600">{lead}</div> : null}
        <div className="mt-6">{children}</div>
      </div>
      {footer ? <div className="mt-6 space-y-2 text-center text-sm text-zinc-600">{footer}</div> : null}
    </div>
  );
}

/**
 * A mailed link that cannot be used (expired, used, unknown): what happened, what to do, and
 * the ways on as links (the first is the main one).
 */
export function LinkProblemCard({
  title,
  problem,
  advice,
  links,
}: {
  title: string;
  problem: string | null;
  advice: string;
  links: [{ to: string; label: string }, ...{ to: string; label: string }[]];
}) {
  return (
    <AuthCard title={title}>
      <div className="text-center">
        <ProblemMark />
        <p role="alert" className="mt-4 text-sm leading-relaxed text-red-800">
          {problem}
        </p>
        <p className="mt-2 text-sm leading-relaxed text-zinc-700">{advice}</p>
        <div className="mt-6 flex flex-col gap-3">
          {links.map((link, index) => (
            <Link
              key={link.to}
              to={link.to}
              className={`${index === 0 ? "btn-primary" : "btn-secondary"} w-full`}
            >
              {link.label}
            </Link>
          ))}
        </div>
      </div>
    </AuthCard>
  );
}
