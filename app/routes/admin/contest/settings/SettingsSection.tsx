import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";

/** A form's last refused post, as the action answered it (null when it was not this form's). */
export type SettingsReply = SubmissionResult<string[]> | null;

/** Errors a server reply carries for the whole form (not a field), for the small button forms. */
export function replyFormErrors(result: SettingsReply): string[] | undefined {
  return result?.error?.[""] ?? undefined;
}

/**
 * One card of the 大会設定 tab. Its `id` is the address a saved form comes back to (`#basic`,
 * `#formats`…), so the admin lands on what she just saved; the heading names the region.
 */
export function SettingsSection({
  id,
  title,
  children,
  description,
}: {
  id: string;
  title: string;
  children: ReactNode;
  description?: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className="scroll-mt-4 rounded-2xl bg-white p-5 shadow-sm"
    >
      <h2 id={`${id}-title`} className="text-lg font-bold">
        {title}
      </h2>
      {description ? <div className="mt-1 text-sm text-zinc-600">{description}</div> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}
