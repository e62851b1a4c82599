import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatDateTime } from "~/lib/rules/format";
import { CODE_TTL_MS } from "~/server/auth/codes/codes.server";
import { mailStatusFor } from "~/server/mail/status.server";
import { sellerInfo } from "~/server/core/seller.server";

export const meta: MetaFunction = () => [
  { title: "メールが届かない場合 | コンテスト動画ショップ" },
  {
    name: "description",
    content:
      "認証コードやご注文のメールが届かない場合の確認方法（Gmail・Yahoo!メール・iCloud・docomo・au・SoftBank）",
  },
];

export async function loader() {
  // The page's data travels in the HTML: the public's view, without the SMTP host.
  const status = await mailStatusFor({ admin: false });
  const seller = sellerInfo();
  return {
    status,
    senderDomain: status.senderEmail.split("@")[1] ?? status.senderEmail,
    supportEmail: seller.email,
    supportHours: seller.hours,
    codeMinutes: Math.round(CODE_TTL_MS / 60_000),
  };
}

export default function EmailSupport() {
  const { status, senderDomain, supportEmail, supportHours, codeMinutes } = useLoaderData<typeof loader>();
  const domain = `@${senderDomain}`;
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold sm:text-3xl">メールが届かない場合</h1>
      <p className="mt-3 text-zinc-600">
        認証コードやご注文確認のメールが届かないときは、以下をご確認ください。当店からのメールは{" "}
        <span className="font-semibold break-all text-zinc-900">{status.senderEmail}</span> から送信されます。
      </p>

      <section aria-labelledby="mail-status" className="mt-8">
        <h2 id="mail-status" className="text-lg font-bold">
          メール送信サービスの状態
        </h2>
        <div
          role="status"
          className={`mt-3 rounded-xl border p-4 ${status.emailServiceActive ? "border-emerald-200 bg-emerald-50 text-emerald-900" : "border-red-200 bg-red-50 text-red-900"}`}
        >
          <p className="flex items-center gap-2 font-semibold">
            <span
              aria-hidden="true"
              className={`inline-block h-2.5 w-2.5 rounded-full ${status.emailServiceActive ? "bg-emerald-600" : "bg-red-600"}`}
            />
            {status.emailServiceActive
              ? "正常に稼働しています"
              : "現在、メールの送信に問題が発生している可能性があります"}
          </p>
          {status.emailServiceActive ? null : (
            <p className="mt-1 text-sm">
              {status.error ? `（${status.error}）` : null}
              しばらく時間をおいてから再度お試しいただくか、下記までお問い合わせください。
            </p>
          )}
          <p className="mt-2 text-xs opacity-80">確認日時: {formatDateTime(new Date(status.timestamp))}</p>
        </div>
      </section>

      <section aria-labelledby="code-validity" className="mt-8">
        <h2 id="code-validity" className="text-lg font-bold">
          認証コードの有効期限
        </h2>
        <p className="mt-3 leading-relaxed text-zinc-800">
          認証コードの有効期限は、送信から<strong>{codeMinutes}分間</strong>
          です。メールは通常すぐに届きますが、混雑時は5〜10分ほどかかる場合があります。期限が切れた場合は、画面の「認証コードを再送信」から新しいコードを取得してください（新しいコードを送ると、前のコードは使えなくなります）。
        </p>
      </section>

      <section aria-labelledby="checklist" className="mt-8">
        <h2 id="checklist" className="text-lg font-bold">
          まずご確認ください
        </h2>
        <ol className="mt-3 list-decimal space-y-2 pl-6 leading-relaxed text-zinc-800">
          <li>迷惑メールフォルダ（Gmail の場合は「プロモーション」タブも）に入っていないか</li>
          <li>入力したメールアドレスに間違いがないか</li>
          <li>
            ドメイン指定受信などの受信設定で、<span className="font-semibold">{domain}</span>{" "}
            からのメールが拒否されていないか
          </li>
          <li>メールボックスの容量がいっぱいになっていないか</li>
        </ol>
      </section>

      <section aria-labelledby="providers" className="mt-8">
        <h2 id="providers" className="text-lg font-bold">
          ご利用のメールごとの設定方法
        </h2>
        <p className="mt-2 text-sm text-zinc-600">
          以下の手順で <span className="font-semibold text-zinc-900">{domain}</span>{" "}
          からのメールを受信できるように設定してください。画面の名前は、アプリやサービスの更新により変わることがあります。
        </p>
        <div className="mt-4 space-y-3">
          <Provider title="Gmail">
            <li>「迷惑メール」フォルダと「プロモーション」タブを確認してください。</li>
            <li>
              当店のメールが迷惑メールに入っていた場合は、メールを開いて「迷惑メールではないことを報告」を押してください。
            </li>
            <li>
              パソコン版 Gmail
              の「設定」（歯車）→「すべての設定を表示」→「フィルタとブロック中のアドレス」→「新しいフィルタを作成」で、From
              に「{domain}」と入力し、「迷惑メールにしない」を選んでフィルタを作成すると確実です。
            </li>
          </Provider>
          <Provider title="Yahoo!メール">
            <li>
              「迷惑メール」フォルダを確認し、当店のメールがあれば選択して「迷惑メールではない」を押してください。
            </li>
            <li>
              「設定・その他」→「メールの設定」→「フィルターと受信通知設定」で、差出人に「{domain}
              」を含むメールを「受信箱」に移動するフィルターを追加してください。
            </li>
            <li>「受信拒否設定」に当店のアドレスやドメインが登録されていないかもご確認ください。</li>
          </Provider>
          <Provider title="iCloud メール（iPhone）">
            <li>
              「メール」アプリの「迷惑メール」フォルダを確認し、当店のメールがあれば「受信」に移動してください。
            </li>
            <li>
              送信元アドレス（{status.senderEmail}
              ）を「連絡先」に登録すると、迷惑メールと判定されにくくなります。
            </li>
            <li>
              iCloud.com のメールの「ルール」で、差出人に「{domain}
              」を含むメールを「受信」に移動するルールを作成することもできます。
            </li>
          </Provider>
          <Provider title="docomo（@docomo.ne.jp）">
            <li>
              「My docomo」→「メール設定」→「迷惑メール対策」の「受信リスト設定」で、「{domain}
              」を登録してください。
            </li>
            <li>
              「迷惑メールおまかせブロック」や「パソコンからのメールを拒否する」設定をお使いの場合も、受信リストに登録すると受信できます。
            </li>
          </Provider>
          <Provider title="au（@au.com / @ezweb.ne.jp）">
            <li>
              「auメール」アプリまたは「My au」の「迷惑メールフィルター設定」→「受信リスト設定」で、「{domain}
              」を登録してください。
            </li>
            <li>
              「なりすまし規制」や「パソコンからのメールを拒否」の設定をお使いの場合も、受信リストに登録すると受信できます。
            </li>
          </Provider>
          <Provider title="SoftBank（@softbank.ne.jp / @i.softbank.jp）">
            <li>
              「My SoftBank」→「メール設定」→「迷惑メール対策」の「許可するメールの登録」で、「{domain}
              」を登録してください。
            </li>
            <li>「迷惑メールブロック設定」を強くしている場合も、許可するメールに登録すると受信できます。</li>
          </Provider>
        </div>
        <p className="mt-3 text-sm text-zinc-600">
          その他の携帯会社（楽天モバイル・Y!mobile・格安SIMなど）やプロバイダのメールをお使いの場合も、同様に「
          {domain}」からの受信を許可してください。
        </p>
      </section>

      <section aria-labelledby="support" className="mt-8 rounded-xl border border-zinc-200 bg-white p-5">
        <h2 id="support" className="text-lg font-bold">
          それでも届かない場合
        </h2>
        <p className="mt-2 leading-relaxed text-zinc-800">
          お手数ですが、ご注文時のお名前とメールアドレスを添えて、下記までご連絡ください。
        </p>
        <p className="mt-3">
          <a href={`mailto:${supportEmail}`} className="font-semibold break-all text-brand-700 underline">
            {supportEmail}
          </a>
        </p>
        <p className="mt-1 text-sm text-zinc-600">受付時間: {supportHours}</p>
        <p className="mt-3 text-sm">
          <Link to="/contact" className="text-brand-700 underline">
            お問い合わせページ
          </Link>
        </p>
      </section>
    </article>
  );
}

/** One provider's steps, folded so the page stays short on a phone; <details> opens without JavaScript. */
function Provider({ title, children }: { title: string; children: ReactNode }) {
  return (
    <details className="group rounded-xl border border-zinc-200 bg-white">
      <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between gap-3 px-4 py-3 font-semibold [&::-webkit-details-marker]:hidden">
        {title}
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="h-5 w-5 shrink-0 text-zinc-500 transition-transform group-open:rotate-180"
          fill="currentColor"
        >
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
        </svg>
      </summary>
      <ul className="list-disc space-y-2 border-t border-zinc-200 px-4 py-3 pl-9 text-sm leading-relaxed text-zinc-800">
        {children}
      </ul>
    </details>
  );
}
