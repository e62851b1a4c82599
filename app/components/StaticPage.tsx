import type { ReactNode } from "react";

/**
 * The frame of a text page (about, terms, privacy, legal notice): a title, an optional lead, and readable
 * prose. A notice (outside the prose, so its buttons keep their own look) goes between the lead and the text.
 */
export function StaticPage({
  title,
  lead,
  notice,
  updated,
  children,
}: {
  title: string;
  lead?: ReactNode;
  notice?: ReactNode;
  updated?: string;
  children: ReactNode;
}) {
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold tracking-tight text-zinc-900 sm:text-3xl">{title}</h1>
      {lead ? <p className="mt-3 text-zinc-600">{lead}</p> : null}
      {notice ? <div className="mt-6">{notice}</div> : null}
      <div className="prose-shop mt-8">{children}</div>
      {updated ? <p className="mt-10 text-sm text-zinc-500">最終更新日: {updated}</p> : null}
    </article>
  );
}

/** A definition table (label → value) such as the 特定商取引法 notice; stacks on phones. */
export function FactTable({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="divide-y divide-zinc-200 overflow-hidden rounded-lg border border-zinc-200 bg-white">
      {rows.map(([label, value]) => (
        <div key={label} className="grid gap-1 px-4 py-3 sm:grid-cols-[12rem_1fr] sm:gap-4">
          <dt className="text-sm font-semibold text-zinc-700">{label}</dt>
          <dd className="text-sm leading-relaxed break-words text-zinc-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
