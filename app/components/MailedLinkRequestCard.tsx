import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { AuthCard } from "~/components/AuthCard";
import { FormError, FormNotice } from "~/components/form-messages";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import type { StorefrontForm } from "~/lib/hooks/use-storefront-form";

/**
 * A page that asks for a link by mail to an address anyone can type (パスワードをお忘れの方,
 * 注文状況の確認): the card, the one "sent" text (the same whatever was typed), the form's
 * refusal (a limit), the page's fields and its send button. The server side is
 * mailed-link-request.server.ts.
 */
export function MailedLinkRequestCard({
  title,
  lead,
  footer,
  sent,
  form,
  onFocus,
  submitLabel,
  children,
}: {
  title: string;
  lead: ReactNode;
  footer: ReactNode;
  /** The action's answer once the request went through. */
  sent: string | null | undefined;
  form: StorefrontForm;
  /** The deferred validation's loader (useDeferredValidation). */
  onFocus: () => void;
  submitLabel: string;
  /** The page's fields. */
  children: ReactNode;
}) {
  const busy = useIsPending();
  return (
    <AuthCard title={title} lead={lead} footer={footer}>
      {sent ? (
        <div className="mb-5">
          <FormNotice kind="success">{sent}</FormNotice>
        </div>
      ) : null}
      <Form method="post" {...form.props} onFocus={onFocus} className="space-y-5">
        <FormError id={form.errorId} errors={form.errors} />
        {children}
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "送信中..." : submitLabel}
        </button>
      </Form>
    </AuthCard>
  );
}
