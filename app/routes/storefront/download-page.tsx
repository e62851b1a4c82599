import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { parseForm } from "~/lib/schemas/parse-form";
import { LineRefundBadge } from "~/components/OrderRefunds";
import { RefusalNotice } from "~/components/RefusalNotice";
import { formatDateTime, formatYen } from "~/lib/rules/format";
import { contactPath } from "~/lib/rules/download-links";
import { positiveId } from "~/lib/rules/params";
import { phoneOf } from "~/lib/rules/save-to-phone";
import { familyLinkSchema } from "~/lib/schemas/family-link-schemas";
import { downloadPage, downloadRefusal } from "~/server/orders/customer/downloads.server";
import { offerDownloadRetries } from "~/server/orders/customer/download-retry.server";
import {
  familyLinkPanel,
  makeFamilyLink,
  revokeFamilyLink,
} from "~/server/orders/customer/family-links.server";
import { readForm } from "~/server/http/form.server";
import { redirectWithToast } from "~/server/http/toast.server";
import { DownloadVideo } from "./DownloadVideo";
import { FamilyLinkPanel } from "./FamilyLinkPanel";
import { SaveToPhoneHelp } from "./SaveToPhoneHelp";

export const meta: MetaFunction = () => [
  { title: "ダウンロード | コンテスト動画ショップ" },
  { name: "robots", content: "noindex" },
];

export function loader({ request, params }: LoaderFunctionArgs) {
  // A download cut short whose 24 hours ended is offered again before the page is drawn, so the
  // parent back before the server's pass sees it at once.
  offerDownloadRetries({ pageId: params.id ?? "" });
  const page = downloadPage(params.id ?? "");
  // The same answer for an unknown id as for a wrong one: nothing to learn by guessing.
  if (!page) return data({ page: null }, { status: 404, headers: { "Cache-Control": "no-store" } });
  // After a video was refused (see download-file.ts): the refusal is checked again here, so a
  // made-up query shows the page as it is, and the answer keeps the refusal's 410.
  const refusedLineId = positiveId(new URL(request.url).searchParams.get("refused"));
  const refusal = refusedLineId ? downloadRefusal(page.id, refusedLineId) : null;
  const refusedLine = refusal ? (page.lines.find((line) => line.id === refusedLineId) ?? null) : null;
  return data(
    {
      page,
      // The visitor's phone, so her saving steps come first (drawn by the server: JavaScript off too).
      phone: phoneOf(request.headers.get("User-Agent")),
      family: familyLinkPanel(page.id),
      refusal:
        refusal && refusedLine
          ? { reason: refusal.reason, message: refusal.message, line: refusedLine }
          : null,
    },
    {
      status: refusal ? 410 : 200,
      // The page differs by the visitor's phone: no cache may hand one phone's page to another.
      // Its Referrer-Policy is the shop's one rule (same-origin: its family link's buttons post).
      headers: { "Cache-Control": "no-store", Vary: "User-Agent" },
    },
  );
}

/**
 * The family link's two buttons (家族に共有するリンクを作る / リンクを無効にする): a plain post, back to
 * the page's panel with a toast; a refusal stays on the page beside the panel.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const pageId = params.id ?? "";
  const submission = parseForm(await readForm(request), { schema: familyLinkSchema });
  if (submission.status !== "success")
    return data(
      { familyError: submission.error?.intent?.[0] ?? "操作を読み取れませんでした" },
      { status: 400, headers: { "Cache-Control": "no-store" } },
    );
  const making = submission.value.intent === "family-link-make";
  const change = making ? makeFamilyLink(pageId) : revokeFamilyLink(pageId);
  if (!change.ok)
    return data(
      { familyError: change.message },
      { status: change.status, headers: { "Cache-Control": "no-store" } },
    );
  return redirectWithToast(request, `/download/${pageId}#family`, {
    kind: "success",
    title: making ? "家族に共有するリンクを作りました" : "リンクを無効にしました",
    description: making ? undefined : "送ったリンクはもう開けません。",
  });
}

export default function DownloadPage() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { page } = loaded;
  const refusal = "refusal" in loaded ? loaded.refusal : null;
  const phone = "phone" in loaded ? loaded.phone : null;
  const family = "family" in loaded ? loaded.family : null;
  if (!page) {
    return (
      <div className="mx-auto max-w-lg px-4 py-16 text-center">
        <h1 className="text-2xl font-bold">ダウンロードページが見つかりません</h1>
        <p className="mt-3 text-zinc-600">
          URLが正しくないか、有効期限が切れています。メールに記載のURLをご確認ください。
        </p>
        <Link to="/contact" className="mt-8 btn-secondary">
          お問い合わせ
        </Link>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-3xl px-4 py-6 sm:py-10">
      <h1 className="text-2xl font-bold">動画のダウンロード</h1>
      <dl className="mt-4 grid grid-cols-[7rem_1fr] gap-y-1 rounded-xl border border-zinc-200 bg-white px-4 py-3 text-sm">
        <dt className="text-zinc-500">注文番号</dt>
        <dd className="font-semibold">{page.orderNumber}</dd>
        <dt className="text-zinc-500">作成日</dt>
        <dd>{formatDateTime(new Date(page.createdAt))}</dd>
        <dt className="text-zinc-500">有効期限</dt>
        <dd className={page.expired ? "font-semibold text-red-700" : undefined}>
          {formatDateTime(new Date(page.expiresAt))}
        </dd>
      </dl>
      {page.expired ? (
        <div role="alert" className="mt-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-800">
          <p className="font-semibold">
            ダウンロードの有効期限が切れています。再度必要な場合はお問い合わせください。
          </p>
          <HelpLink orderNumber={page.orderNumber} />
        </div>
      ) : refusal ? (
        <div role="alert" className="mt-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-800">
          <p className="font-semibold">{refusal.message}</p>
          <p className="mt-1 text-sm">
            {refusal.line.contestName}・{refusal.line.category}・{page.bibNumberLabel}{" "}
            {refusal.line.athleteNumber} {refusal.line.athleteName}・{refusal.line.style}
          </p>
          <HelpLink orderNumber={page.orderNumber} />
        </div>
      ) : null}

      {page.expired ? null : (
        <p className="mt-4 text-sm text-zinc-700">
          スマホの「写真」に保存するには、下の
          <a href="#save-help" className="font-semibold text-red-800 underline">
            スマホへの保存方法
          </a>
          をご覧ください。
        </p>
      )}

      <ul className="mt-4 space-y-4">
        {page.lines.map((line) => (
          <li key={line.id} className="rounded-xl border border-zinc-200 bg-white p-4 shadow-sm">
            <p className="font-semibold">{line.contestName}</p>
            <p className="mt-1 text-sm text-zinc-700">
              {line.category}・{page.bibNumberLabel} {line.athleteNumber} {line.athleteName}・{line.style}
            </p>
            <p className="mt-1 text-sm font-semibold">{formatYen(line.price)}</p>
            {line.refundState ? (
              <p className="mt-1">
                <LineRefundBadge state={line.refundState} amount={line.price} />
              </p>
            ) : null}
            {line.refusalNote !== null ? (
              <RefusalNotice note={line.refusalNote} refunded={line.refundState !== null} />
            ) : line.refunded ? (
              <p className="mt-3 rounded-lg bg-zinc-100 px-3 py-2 text-sm text-zinc-700">
                ご返金の対象となったため、この動画はダウンロードできません。
              </p>
            ) : line.video ? (
              <DownloadVideo
                pageId={page.id}
                lineId={line.id}
                format={line.orientation}
                video={line.video}
                available={!page.expired && !line.downloaded}
                title={`${line.athleteNumber} ${line.athleteName}・${line.style}`}
              />
            ) : (
              <div className="mt-3 grid grid-cols-2 gap-3">
                {(["horizontal", "vertical"] as const).map((format) => {
                  const label = format === "horizontal" ? "横型ダウンロード" : "縦型ダウンロード";
                  const available =
                    !page.expired && line.delivered && line.orientation === format && !line.downloaded;
                  return available ? (
                    <a
                      key={format}
                      href={`/download/${page.id}/${line.id}/${format}`}
                      className="btn-primary text-sm"
                    >
                      {label}
                    </a>
                  ) : (
                    <button key={format} type="button" disabled className="btn-secondary text-sm">
                      {label}
                    </button>
                  );
                })}
              </div>
            )}
            {line.offeredAgain && !line.refunded ? (
              <p className="mt-2 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
                前回のダウンロードが最後まで完了しなかったため、もう1回ダウンロードできるようにしました。
              </p>
            ) : null}
            {line.downloaded && !line.refunded ? (
              <p className="mt-2 text-xs text-zinc-500">ダウンロード済みです</p>
            ) : null}
            {line.resumableUntil && !line.refunded ? (
              <p className="mt-2 text-xs text-zinc-500">
                {formatDateTime(new Date(line.resumableUntil))} までは再ダウンロード（再開）できます
              </p>
            ) : null}
          </li>
        ))}
      </ul>

      {page.expired ? null : <SaveToPhoneHelp phone={phone} />}
      {family && (family.videoCount > 0 || family.link) ? (
        <FamilyLinkPanel
          panel={family}
          expiresAt={page.expiresAt}
          error={actionData && "familyError" in actionData ? actionData.familyError : null}
        />
      ) : null}

      <section className="mt-8 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm leading-relaxed text-amber-950">
        <h2 className="font-bold">ご注意</h2>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          <li>
            各動画のダウンロードは1回限りです。スマホ用・オリジナルのどちらかのダウンロード、またはこのページでの再生を始めると、その動画のダウンロード開始となります。
          </li>
          <li>
            開始から24時間以内であれば、もう一方のダウンロードや再生、通信が途切れた場合の再開ができます。
          </li>
          <li>
            ダウンロードが途中で止まったまま24時間が過ぎた場合は、自動でもう1回ダウンロードできるようにし、メールでお知らせします（1回のみ）。
          </li>
          <li>動画の再配布・転売・SNS等への公開はご遠慮ください。</li>
          <li>有効期限内にダウンロードを完了してください。</li>
        </ul>
      </section>
    </div>
  );
}

/** How to get help after a refusal: お問い合わせ with the order number already filled in. */
function HelpLink({ orderNumber }: { orderNumber: string }) {
  return (
    <p className="mt-2 text-sm">
      注文番号を添えてお問い合わせいただければ、ご注文の状況を確認のうえご案内いたします。
      <Link to={contactPath(orderNumber)} className="mt-2 block font-semibold text-red-900 underline">
        お問い合わせ（注文番号 {orderNumber}）
      </Link>
    </p>
  );
}
