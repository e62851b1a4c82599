import { lazy, Suspense, useState } from "react";
import { THUMBNAIL_PIXELS } from "~/lib/rules/media-sizes";

export type ContestSampleView = {
  id: number;
  kind: "video" | "image";
  url: string;
  thumbnailUrl: string | null;
  posterUrl: string | null;
  width: number | null;
  height: number | null;
};

// Fetched on the first tap, like the video itself: the order form stays within its JavaScript
// budget (npm run bench:web) and a parent who plays nothing loads nothing of the player.
const VideoPlayer = lazy(() =>
  import("~/components/VideoPlayer").then((module) => ({ default: module.VideoPlayer })),
);

/**
 * The contest's サンプル on its order form: the admin's thumbnail, else the video's own poster
 * frame, for each video (on its tile and in the player) and
 * a lazily loaded picture for each image. A video's bytes are fetched only after a tap: with
 * JavaScript the shop's player opens (preload="none"); without, the link opens the file itself.
 */
export function ContestSamples({
  samples,
  contestName,
}: {
  samples: ContestSampleView[];
  contestName: string;
}) {
  const [playing, setPlaying] = useState<{ sample: ContestSampleView; title: string } | null>(null);
  if (samples.length === 0) return null;
  let videos = 0;
  let images = 0;
  return (
    <section
      aria-labelledby="contest-samples"
      className="mt-5 rounded-xl border border-zinc-200 bg-white p-4"
    >
      <h2 id="contest-samples" className="font-semibold">
        サンプル
      </h2>
      <p className="mt-1 text-xs leading-relaxed text-zinc-500">
        仕上がりのイメージです。動画はタップしてから読み込みますので、それまで通信量はかかりません。
      </p>
      <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3">
        {samples.map((sample) => {
          const title = sample.kind === "video" ? `サンプル動画${++videos}` : `サンプル画像${++images}`;
          return (
            <li key={sample.id}>
              {sample.kind === "video" ? (
                <a
                  href={sample.url}
                  onClick={(event) => {
                    event.preventDefault();
                    setPlaying({ sample, title });
                  }}
                  className="group block overflow-hidden rounded-lg border border-zinc-200 bg-zinc-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                >
                  <span className="relative block aspect-video">
                    {sample.thumbnailUrl || sample.posterUrl ? (
                      <img
                        src={sample.thumbnailUrl ?? sample.posterUrl ?? undefined}
                        alt=""
                        width={sample.thumbnailUrl ? THUMBNAIL_PIXELS : 1280}
                        height={sample.thumbnailUrl ? THUMBNAIL_PIXELS : 720}
                        loading="lazy"
                        decoding="async"
                        className="absolute inset-0 h-full w-full object-cover opacity-90 group-hover:opacity-100"
                      />
                    ) : null}
                    <span className="absolute inset-0 flex items-center justify-center">
                      <span
                        aria-hidden="true"
                        className="flex h-12 w-12 items-center justify-center rounded-full bg-white/90 text-zinc-900 shadow"
                      >
                        <svg viewBox="0 0 24 24" className="ml-0.5 h-6 w-6" fill="currentColor">
                          <path d="M8 5v14l11-7z" />
                        </svg>
                      </span>
                    </span>
                  </span>
                  <span className="block bg-white px-2 py-1.5 text-xs font-semibold text-zinc-800">
                    {title}を再生
                  </span>
                </a>
              ) : (
                <a
                  href={sample.url}
                  target="_blank"
                  rel="noopener"
                  className="block overflow-hidden rounded-lg border border-zinc-200 bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                >
                  <img
                    src={sample.thumbnailUrl ?? sample.url}
                    alt={`${contestName}の${title}`}
                    width={sample.thumbnailUrl ? THUMBNAIL_PIXELS : (sample.width ?? 1200)}
                    height={sample.thumbnailUrl ? THUMBNAIL_PIXELS : (sample.height ?? 900)}
                    loading="lazy"
                    decoding="async"
                    className="aspect-video h-auto w-full object-cover"
                  />
                  <span className="block bg-white px-2 py-1.5 text-xs font-semibold text-zinc-800">
                    {title}
                  </span>
                </a>
              )}
            </li>
          );
        })}
      </ul>
      {playing ? (
        <Suspense fallback={null}>
          <VideoPlayer
            src={playing.sample.url}
            title={`${contestName} ${playing.title}`}
            poster={playing.sample.thumbnailUrl ?? playing.sample.posterUrl ?? undefined}
            preload="none"
            playOnOpen
            onClose={() => setPlaying(null)}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
