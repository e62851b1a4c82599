import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LinkProblemCard } from "~/components/AuthCard";
import { formatDateTime } from "~/lib/rules/format";
import { openFamilyWatch, type FamilyVideo } from "~/server/orders/customer/family-links.server";

export const meta: MetaFunction = () => [
  { title: "動画の再生 | コンテスト動画ショップ" },
  { name: "robots", content: "noindex" },
];

// The token is the only key to the page: never cached, never indexed (no Referer leaves it: the
// shop's one rule, security-headers.server.ts).
const HEADERS = { "Cache-Control": "no-store" };

/**
 * Link previews (LINE, Slack, X, Facebook, Discord…) fetch a shared address before anyone opens
 * it: such a fetch is not a view.
 */
const LINK_PREVIEWERS = /bot\b|crawler|spider|facebookexternalhit|line-poker|slack|discord|whatsapp|preview/i;

/**
 * The family link's page (/family/:token): the order's phone versions to watch, nothing to save.
 * Opening it counts one view of the link; its videos are fetched from family-file.ts, which counts
 * nothing. A revoked or ended link is 410, a token nobody was given 404.
 */
export function loader({ request, params }: LoaderFunctionArgs) {
  const countView =
    request.method === "GET" && !LINK_PREVIEWERS.test(request.headers.get("User-Agent") ?? "");
  const watch = openFamilyWatch(params.token ?? "", { countView });
  if (!watch) return data({ watch: null, token: "" }, { status: 404, headers: HEADERS });
  if (watch.state === "ended") return data({ watch, token: "" }, { status: 410, headers: HEADERS });
  return data({ watch, token: params.token ?? "" }, { headers: HEADERS });
}

export default function FamilyWatch() {
  const { watch, token } = useLoaderData<typeof loader>();
  if (!watch || watch.state === "ended")
    return (
      <LinkProblemCard
        title={watch ? "このリンクは終了しました" : "ページが見つかりません"}
        problem={
          watch
            ? "この動画のリンクは、無効にされたか、有効期限が過ぎています。"
            : "URLが正しくないか、このリンクはありません。"
        }
        advice="動画をご覧になるには、リンクを送ってくださった方に新しいリンクをお願いしてください。"
        links={[{ to: "/", label: "トップページへ" }]}
      />
    );
  return (
    <div className="mx-auto max-w-3xl px-4 py-6 sm:py-10">
      <h1 className="text-2xl font-bold">大会の動画</h1>
      <p className="mt-3 rounded-xl border border-zinc-200 bg-white px-4 py-3 text-sm leading-relaxed text-zinc-700">
        このページは動画を見るためのページです（保存・ダウンロードはできません）。
        <span className="font-semibold text-zinc-900">{formatDateTime(watch.expiresAt)}</span>{" "}
        まで見られます。
      </p>
      {watch.videos.length === 0 ? (
        <p className="mt-6 rounded-xl border border-zinc-200 bg-zinc-50 px-4 py-6 text-center text-sm text-zinc-700">
          いま見られる動画はありません。
        </p>
      ) : (
        <ul className="mt-6 space-y-6">
          {watch.videos.map((video) => (
            <WatchVideo key={video.lineId} token={token} video={video} numberLabel={watch.bibNumberLabel} />
          ))}
        </ul>
      )}
    </div>
  );
}

function WatchVideo({
  token,
  video,
  numberLabel,
}: {
  token: string;
  video: FamilyVideo;
  numberLabel: string;
}) {
  const title = `${numberLabel} ${video.athleteNumber} ${video.athleteName}・${video.style}`;
  const file = `/family/${encodeURIComponent(token)}/${video.lineId}`;
  return (
    <li className="rounded-xl border border-zinc-200 bg-white p-4 shadow-sm">
      <p className="font-semibold">{video.contestName}</p>
      <p className="mt-1 text-sm text-zinc-700">
        {video.category}・{title}
      </p>
      <video
        controls
        controlsList="nodownload"
        playsInline
        preload="none"
        aria-label={`${title}の動画`}
        src={file}
        poster={video.hasPoster ? `${file}?v=poster` : undefined}
        width={video.frame?.width}
        height={video.frame?.height}
        onContextMenu={(event) => event.preventDefault()}
        className="mx-auto mt-3 h-auto max-h-[70vh] w-full rounded-lg bg-black"
      />
    </li>
  );
}
