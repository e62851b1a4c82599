import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { AuthCard, LinkProblemCard } from "~/components/AuthCard";
import { DoneMark } from "~/components/icons";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { formatDateTime } from "~/lib/rules/format";
import { reminderStopPage, reminderStopPath, stopReminders } from "~/server/reminders/reminder-stop.server";

export const meta: MetaFunction = () => [
  { title: "お知らせメールの停止 | コンテスト動画ショップ" },
  { name: "robots", content: "noindex" },
];

// The token is the only key to the page: never cached, never indexed.
const HEADERS = { "Cache-Control": "no-store" };

/**
 * A reminder mail's stop link. Opening it only asks (a mail scanner following the link stops
 * nothing); the button posts, a plain form that works without JavaScript.
 */
export function loader({ params }: LoaderFunctionArgs) {
  const page = reminderStopPage(params.token ?? "");
  // The same answer for a malformed token as for an unknown one: nothing to learn by guessing.
  if (!page) return data({ page: null }, { status: 404, headers: HEADERS });
  return data({ page }, { headers: HEADERS });
}

export function action({ params }: ActionFunctionArgs) {
  const token = params.token ?? "";
  if (!stopReminders(token)) return data({ page: null }, { status: 404, headers: HEADERS });
  // Back to the page, which now says the reminders are stopped (a reload posts nothing again).
  return redirect(reminderStopPath(token), 303);
}

export default function ReminderStop() {
  const { page } = useLoaderData<typeof loader>();
  const busy = useIsPending();
  if (!page)
    return (
      <LinkProblemCard
        title="お知らせメールの停止"
        problem="このリンクは無効です。"
        advice="メールに記載のURLを最後まで正しく開いたかご確認ください。解決しない場合はお問い合わせください。"
        links={[
          { to: "/contact", label: "お問い合わせ" },
          { to: "/", label: "トップページへ" },
        ]}
      />
    );
  const order = (
    <dl className="mt-4 grid grid-cols-[5.5rem_minmax(0,1fr)] gap-y-1 rounded-xl border border-zinc-200 bg-zinc-50 px-4 py-3 text-sm">
      <dt className="text-zinc-500">注文番号</dt>
      <dd className="font-semibold tracking-wider">{page.orderNumber}</dd>
      <dt className="text-zinc-500">大会</dt>
      <dd className="break-words">{page.contestName}</dd>
    </dl>
  );
  if (page.stoppedAt)
    return (
      <AuthCard title="お知らせを停止しました">
        <div className="text-center">
          <DoneMark />
        </div>
        <p role="status" className="mt-4 text-sm leading-relaxed text-zinc-700">
          このご注文のお知らせメール（お支払い期限・ダウンロード期限の前のご案内）は、今後お送りしません（
          {formatDateTime(new Date(page.stoppedAt))} に停止）。
        </p>
        {order}
        <p className="mt-4 text-sm leading-relaxed text-zinc-600">
          お支払いの確認や動画の納品など、ご注文に必要なメールは引き続きお送りします。
        </p>
        <Link to="/" className="mt-6 btn-secondary w-full">
          トップページへ
        </Link>
      </AuthCard>
    );
  return (
    <AuthCard
      title="お知らせメールの停止"
      lead="このご注文について、お支払い期限やダウンロード期限が近づいたときのお知らせメールを停止します。"
    >
      {order}
      <p className="mt-4 text-sm leading-relaxed text-zinc-600">
        停止しても、お支払いの確認や動画の納品など、ご注文に必要なメールは引き続きお送りします。
      </p>
      <Form method="post" className="mt-6">
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "停止しています…" : "お知らせメールを停止する"}
        </button>
      </Form>
    </AuthCard>
  );
}
