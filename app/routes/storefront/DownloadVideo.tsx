import { formatBytes } from "~/lib/rules/format";
import { durationLabel } from "~/lib/rules/video-versions";
import { downloadVideoPath } from "~/lib/rules/download-video-links";
import type {
  DownloadVideo as Video,
  VideoVersionFacts,
} from "~/server/orders/customer/download-videos.server";

/** 「スマホ用（720p・30.8 MB）」「オリジナル（308 MB）」: what the parent gets, in the size their phone will show. */
export function versionLabel(name: string, facts: VideoVersionFacts): string {
  const size = formatBytes(facts.size);
  return `${name}（${facts.resolution ? `${facts.resolution}・${size}` : size}）`;
}

type Props = {
  pageId: string;
  lineId: number;
  format: string;
  video: Video;
  /** Whether it may be fetched now (the page is live and the line's 24 hours are not over). */
  available: boolean;
  /** Who is in it, for the player's name (a family with two children). */
  title: string;
};

/**
 * A video the shop stores, on its download page: the player (the phone version when there is one,
 * streamed with Range; the original otherwise), its duration, and a button per version. The
 * player asks for nothing until it is started (preload="none"): starting it counts, as a download.
 */
export function DownloadVideo({ pageId, lineId, format, video, available, title }: Props) {
  const link = (version: "original" | "phone", play = false) =>
    downloadVideoPath(pageId, lineId, format, { version, play });
  const original = versionLabel("オリジナル", video.original);
  const phone = video.phone ? versionLabel("スマホ用", video.phone) : null;
  const showPlayer = available && !video.removed;
  return (
    <div className="mt-3">
      {showPlayer ? (
        <video
          controls
          playsInline
          preload="none"
          aria-label={`${title}の動画`}
          src={link(video.phone ? "phone" : "original", true)}
          poster={
            video.hasPoster
              ? downloadVideoPath(pageId, lineId, format, { version: "poster", play: false })
              : undefined
          }
          width={video.frame?.width}
          height={video.frame?.height}
          className="mx-auto h-auto max-h-[55vh] w-full rounded-lg bg-black"
        />
      ) : null}
      {video.durationMs !== null && !video.removed ? (
        <p className="mt-2 text-sm text-zinc-700">
          再生時間 <span className="font-semibold tabular-nums">{durationLabel(video.durationMs)}</span>
        </p>
      ) : null}
      {showPlayer ? (
        <p className="mt-1 text-xs text-zinc-500">再生を始めると、この動画のダウンロード開始となります。</p>
      ) : null}
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {phone ? <VersionButton href={link("phone")} label={phone} primary available={available} /> : null}
        <VersionButton href={link("original")} label={original} primary={!phone} available={available} />
      </div>
      {available && video.phonePreparing ? (
        <p className="mt-2 text-xs leading-relaxed text-zinc-600">
          スマホで見やすい軽い動画（スマホ用）を準備しています。数分後にこのページを開き直すと表示されます（メールはお送りしません）。
        </p>
      ) : null}
    </div>
  );
}

function VersionButton(props: { href: string; label: string; primary: boolean; available: boolean }) {
  const style = `${props.primary ? "btn-primary" : "btn-secondary"} px-3 text-sm`;
  return props.available ? (
    <a href={props.href} className={style}>
      {props.label}
    </a>
  ) : (
    <button type="button" disabled className="btn-secondary px-3 text-sm">
      {props.label}
    </button>
  );
}
