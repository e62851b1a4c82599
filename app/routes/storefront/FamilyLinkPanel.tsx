import { useEffect, useState } from "react";
import { Form } from "@remix-run/react";
import { FormError } from "~/components/form-messages";
import { FieldLabel } from "~/components/forms";
import { useHydrated } from "~/lib/hooks/use-hydrated";
import { useIsPending } from "~/lib/hooks/use-is-pending";
import { familyShare } from "~/lib/rules/family-share";
import { formatDateTime } from "~/lib/rules/format";
import type { FamilyLinkPanel as Panel } from "~/server/orders/customer/family-links.server";

type Props = {
  panel: Panel;
  /** The download page's end: the family link's too. */
  expiresAt: Date;
  /** The action's refusal (a bad post, a page that ended meanwhile). */
  error: string | null;
};

/**
 * ご家族に見てもらう on the download page: the parent makes a watch-only link of the phone
 * versions, sends it by LINE, by the parent's own mail app or the phone's share sheet, sees how
 * often it was opened, and can revoke it. Both buttons are plain posts; without JavaScript the link
 * is shown in a field to select and copy by hand.
 */
export function FamilyLinkPanel({ panel, expiresAt, error }: Props) {
  const busy = useIsPending();
  const until = formatDateTime(expiresAt);
  return (
    <section
      id="family"
      aria-labelledby="family-heading"
      className="mt-8 scroll-mt-20 rounded-xl border border-sky-200 bg-sky-50 p-4 text-sm leading-relaxed text-zinc-800"
    >
      <h2 id="family-heading" className="text-base font-bold text-zinc-900">
        ご家族に動画を見てもらう
      </h2>
      <p className="mt-2">
        スマホ用の動画を再生だけできるページのリンクを作れます。おじいちゃん・おばあちゃんなど、ご家族に送ってください。リンクを開いて再生しても、このページのダウンロードには数えられません。
      </p>
      <p className="mt-1">
        リンクは <span className="font-semibold">{until}</span>{" "}
        まで（このページと同じ）有効で、いつでも無効にできます。
      </p>
      {error ? (
        <div className="mt-3">
          <FormError errors={[error]} />
        </div>
      ) : null}
      {panel.link ? (
        <SharedLink url={panel.link.url} views={panel.link.views} expiresAt={expiresAt} busy={busy} />
      ) : (
        <Form method="post" className="mt-4">
          <button
            type="submit"
            name="intent"
            value="family-link-make"
            className="btn-primary w-full sm:w-auto"
            disabled={busy}
          >
            家族に共有するリンクを作る
          </button>
        </Form>
      )}
    </section>
  );
}

function SharedLink(props: { url: string; views: number; expiresAt: Date; busy: boolean }) {
  const share = familyShare(props.url, props.expiresAt);
  return (
    <div className="mt-4 space-y-3">
      <div>
        <FieldLabel htmlFor="family-link-url">ご家族に送るリンク</FieldLabel>
        <input
          id="family-link-url"
          readOnly
          value={props.url}
          onFocus={(event) => event.currentTarget.select()}
          className="field-input font-mono text-sm select-all"
        />
        <p className="mt-1 text-zinc-700">
          これまでに <span className="font-semibold tabular-nums">{props.views}</span> 回開かれました
        </p>
      </div>
      <div className="grid gap-2 sm:grid-cols-3">
        <a href={share.line} target="_blank" rel="noopener noreferrer" className="btn-secondary text-sm">
          <span aria-hidden="true" className="size-3 rounded-sm bg-[#06C755]" />
          LINEで送る
        </a>
        <a href={share.mail} className="btn-secondary text-sm">
          メールで送る
        </a>
        <ShareButton url={props.url} text={share.text} />
      </div>
      <Form method="post" className="border-t border-sky-200 pt-3">
        <button
          type="submit"
          name="intent"
          value="family-link-revoke"
          className="btn-secondary text-sm text-red-800"
          disabled={props.busy}
        >
          リンクを無効にする
        </button>
        <p className="mt-1 text-xs text-zinc-600">
          無効にすると、送ったリンクはすぐに開けなくなります。必要なら新しいリンクを作り直せます。
        </p>
      </Form>
    </div>
  );
}

/**
 * 共有 (the phone's share sheet, Web Share API) where the browser has it, else コピー (the
 * clipboard). Drawn only once JavaScript runs: without it the field above is the way.
 */
function ShareButton({ url, text }: { url: string; text: string }) {
  const hydrated = useHydrated();
  const [canShare, setCanShare] = useState(false);
  const [said, setSaid] = useState("");
  useEffect(() => setCanShare(typeof navigator.share === "function"), []);
  if (!hydrated) return null;
  const act = async () => {
    try {
      if (canShare) {
        await navigator.share({ title: "大会の動画", text, url });
      } else {
        await navigator.clipboard.writeText(url);
        setSaid("リンクをコピーしました");
      }
    } catch {
      // The parent closed the share sheet, or the clipboard was refused: the field is still there.
      if (!canShare) setSaid("コピーできませんでした。上のリンクを長押しでコピーしてください。");
    }
  };
  return (
    <>
      <button type="button" className="btn-secondary text-sm" onClick={() => void act()}>
        {canShare ? "共有" : "コピー"}
      </button>
      <p role="status" className="text-xs text-emerald-800 sm:col-span-3">
        {said}
      </p>
    </>
  );
}
