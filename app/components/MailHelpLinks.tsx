import { Fragment } from "react";
import { Link } from "@remix-run/react";

export type FooterLink = { to: string; label: string };

/**
 * The line of help links under a form that mails a code or a link: 「メールが届かない場合」 (the
 * page on spam folders and carrier filters), then, when `contact` is set, 「お問い合わせ」, joined
 * by ・ as Japanese sites do. One component so the wording, the order and the link targets stay
 * the same on every page; `before`/`after` add the page's own ways on (ログインへ戻る,
 * メールアドレスを修正する) on the same line.
 */
export function MailHelpLinks({
  contact = false,
  before = [],
  after = [],
  className,
}: {
  contact?: boolean;
  before?: readonly FooterLink[];
  after?: readonly FooterLink[];
  className?: string;
}) {
  const links: FooterLink[] = [
    ...before,
    { to: "/email-support", label: "メールが届かない場合" },
    ...(contact ? [{ to: "/contact", label: "お問い合わせ" }] : []),
    ...after,
  ];
  return (
    <p className={className}>
      {links.map((link, index) => (
        <Fragment key={link.to}>
          {index > 0 ? "・" : null}
          <Link to={link.to} className="text-brand-700 underline">
            {link.label}
          </Link>
        </Fragment>
      ))}
    </p>
  );
}
