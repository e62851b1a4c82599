import type { ReactNode } from "react";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { FactTable, StaticPage } from "~/components/StaticPage";
import { TermLines } from "~/components/PaymentTermsText";
import { shopPaymentTerms } from "~/server/core/payment-terms.server";
import { sellerInfo } from "~/server/core/seller.server";
import { orderLookupSchema } from "~/lib/schemas/order-lookup-schemas";

export const meta: MetaFunction = () => [
  { title: "お問い合わせ | コンテスト動画ショップ" },
  {
    name: "description",
    content:
      "コンテスト動画ショップへのお問い合わせ窓口です。受付時間、お問い合わせの際にお知らせいただきたい内容、よくあるご質問をご案内します。",
  },
];

export function loader({ request }: LoaderFunctionArgs) {
  // ?order= comes from a link of the shop (the download page): the order number filled in for
  // the mail. Anything that is not an order number is left out, the page stays the same.
  const order = orderLookupSchema.shape.orderNumber.safeParse(new URL(request.url).searchParams.get("order"));
  return {
    seller: sellerInfo(),
    terms: shopPaymentTerms(),
    orderNumber: order.success ? order.data : null,
  };
}

/** The mail to write, with the order number already in its subject and body. */
function mailtoAbout(email: string, orderNumber: string): string {
  const subject = `ご注文についてのお問い合わせ（注文番号 ${orderNumber}）`;
  const body = [
    `注文番号：${orderNumber}`,
    "お名前：",
    "ご注文時のメールアドレス：",
    "お問い合わせの内容：",
    "",
  ].join("\n");
  return `mailto:${email}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

export default function ContactPage() {
  const { seller, terms, orderNumber } = useLoaderData<typeof loader>();
  const mailDomain = seller.email.split("@")[1] ?? seller.email;
  const mailLink = <a href={`mailto:${seller.email}`}>{seller.email}</a>;

  return (
    <StaticPage
      title="お問い合わせ"
      lead="ご注文や動画のダウンロードについてのご質問は、メールで承っております。お気軽にお問い合わせください。"
      notice={
        orderNumber ? (
          <section
            aria-labelledby="contact-order"
            className="rounded-xl border border-red-200 bg-brand-50 p-4 text-sm leading-relaxed"
          >
            <h2 id="contact-order" className="text-base font-bold text-zinc-900">
              注文番号 {orderNumber} についてのお問い合わせ
            </h2>
            <p className="mt-2 text-zinc-700">
              下のボタンから、注文番号を記入したメールを作成できます。お名前とお問い合わせの内容をお書き添えのうえ、お送りください。
            </p>
            <a href={mailtoAbout(seller.email, orderNumber)} className="mt-3 btn-primary">
              メールでお問い合わせ（注文番号入り）
            </a>
            <p className="mt-2 text-xs text-zinc-600">
              メールアプリが開かない場合は、{seller.email} 宛てに、件名に注文番号 {orderNumber}{" "}
              を入れてお送りください。
            </p>
          </section>
        ) : null
      }
    >
      <h2>お問い合わせ先</h2>
      <FactTable
        rows={[
          ["メールアドレス", mailLink],
          ["受付時間", seller.hours],
          [
            "ご返信",
            "内容を確認のうえ、営業時間内に順次ご返信いたします。営業時間外・休業日にいただいたお問い合わせは、翌営業日以降のご返信となります。",
          ],
          ["運営者", seller.name],
        ]}
      />
      <p>
        当店からの返信は {mailLink} からお送りします。迷惑メールフォルダに振り分けられることがありますので、「
        {mailDomain}」からのメールを受信できるよう設定をお願いいたします。
      </p>

      <h2>お問い合わせの際にお書きいただきたいこと</h2>
      <p>スムーズにご案内するため、次の内容をできるだけ詳しくお書き添えください。</p>
      <ul>
        <li>注文番号（ご注文確認メールに記載の8桁の番号）</li>
        <li>ご注文時にご入力いただいたお名前とメールアドレス</li>
        <li>大会名</li>
        <li>選手名とゼッケン番号（出場番号）</li>
        <li>動画の形式（縦型・横型）</li>
        <li>お問い合わせの内容（いつ、どの画面で、どのようなことが起きたか）</li>
        <li>
          動画が再生できない・ダウンロードできない場合は、お使いの端末の機種名、OS
          のバージョン、ブラウザの種類と、表示されたメッセージ（画面のスクリーンショットがあれば添付してください）
        </li>
      </ul>
      <p>
        ご注文前のご質問の場合は、大会名と選手名をお知らせください。なお、安全のため、カード番号やパスワードは
        <strong>絶対にメールに記載しないでください</strong>
        。当店からお尋ねすることもありません。
      </p>

      <h2>メールが届かない場合</h2>
      <p>
        確認コードやご注文確認メール、ダウンロード用URLのメールが届かない場合は、迷惑メールフォルダや受信拒否の設定をご確認ください。詳しい確認方法は
        <Link to="/email-support">メールが届かない場合</Link>
        のページでご案内しています。それでも届かない場合は、ご注文時と別のメールアドレスからでも構いませんので、上記の窓口までご連絡ください。
      </p>

      <h2>よくあるご質問</h2>
      <div className="space-y-3">
        <Faq question="動画はいつ届きますか？">
          <TermLines lines={terms.delivery} />
          <p>
            {terms.businessDays}
            大会の規模や編集の状況によりお時間をいただく場合は、メールでお知らせします。
          </p>
        </Faq>
        <Faq question="ダウンロードの期限や回数に制限はありますか？">
          <p>
            ダウンロードページの有効期限は、URL をお送りしてから{seller.downloadExpiryDays}
            日間です。また、各動画のダウンロードは1回限りです。Wi-Fi
            など安定した通信環境で、端末の空き容量を確認してからダウンロードしてください。
          </p>
        </Faq>
        <Faq question="ダウンロードが途中で止まってしまいました。">
          <p>
            通信状況などにより正常に保存できなかった場合は、注文番号を添えてお問い合わせください。ダウンロードの状況を確認のうえ、再度ダウンロードしていただけるよう対応いたします。
          </p>
        </Faq>
        <Faq question="動画が再生できません。">
          <p>
            動画は MP4
            形式です。まずは端末の写真・動画アプリやファイルアプリに保存されているかをご確認のうえ、別の再生アプリでもお試しください。それでも再生できない場合は、端末の機種名などを添えてお問い合わせください。ファイルに不具合があった場合は、再納品いたします。
          </p>
        </Faq>
        <Faq question="注文後にキャンセルや形式の変更はできますか？">
          <p>
            デジタル商品のため、ご注文確定後のキャンセル・返品・変更はお受けしておりません。ご注文の前に、選手名・ゼッケン番号・形式をよくご確認ください。ただし、ご注文と異なる動画が届いた場合やファイルに不具合がある場合は、再納品いたします。
            {terms.unpaid}
          </p>
        </Faq>
        <Faq question="支払方法は何が使えますか？">
          <TermLines lines={terms.methodDetails} />
          <p>{terms.offer}</p>
        </Faq>
        <Faq question="購入した動画を SNS に投稿してもよいですか？">
          <p>
            購入された動画は、ご家族などでの私的なご視聴に限ってご利用いただけます。ほかの出場者や観客の方が映っている場合もあるため、SNS・動画共有サイトへの投稿や第三者への配布はご遠慮ください。詳しくは
            <Link to="/terms">利用規約</Link>をご覧ください。
          </p>
        </Faq>
        <Faq question="確認コードのメールが届きません。">
          <p>
            入力したメールアドレスに誤りがないか、迷惑メールフォルダに届いていないかをご確認ください。詳しくは
            <Link to="/email-support">メールが届かない場合</Link>
            のページをご覧ください。
          </p>
        </Faq>
      </div>

      <h2>関連ページ</h2>
      <ul>
        <li>
          <Link to="/about">当サイトについて</Link>
        </li>
        <li>
          <Link to="/terms">利用規約</Link>
        </li>
        <li>
          <Link to="/privacy">プライバシーポリシー</Link>
        </li>
        <li>
          <Link to="/legal-notice">特定商取引法に基づく表記</Link>
        </li>
      </ul>
    </StaticPage>
  );
}

/** One question that opens without JavaScript. */
function Faq({ question, children }: { question: string; children: ReactNode }) {
  return (
    <details className="rounded-lg border border-zinc-200 bg-white px-4 py-3">
      <summary className="cursor-pointer font-semibold text-zinc-900">{question}</summary>
      <div className="mt-2 text-sm">{children}</div>
    </details>
  );
}
