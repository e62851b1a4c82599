import { useCallback, useEffect, useRef, useState } from "react";

/** The spec's playback constants. */
export const MOBILE_MAX_WIDTH = 768;
export const MOBILE_LOAD_TIMEOUT_MS = 5000;
export const RELOAD_DELAY_MS = 100;
export const MAX_BUFFERING_RECOVERIES = 3;
/** How long playback may sit waiting for data before a recovery is tried. */
const STALL_GRACE_MS = 3000;

export function isMobileDevice(): boolean {
  if (typeof window === "undefined") return false;
  return (
    /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent) || window.innerWidth <= MOBILE_MAX_WIDTH
  );
}

/**
 * A modal video player. On phones a tap starts playback (autoplay with sound is refused
 * there); a playback error, or nothing loaded 5 s after the tap on a phone, shows a
 * fallback with 新しいタブで開く and 再読み込み. Buffering stalls are recovered up to 3 times.
 * The storefront opens it with preload="none" and a poster (a slow phone fetches nothing
 * until its tap) and `playOnOpen` (on a computer the click that opened it starts it).
 */
export function VideoPlayer({
  src,
  title,
  onClose,
  preload = "metadata",
  poster,
  playOnOpen = false,
}: {
  src: string | null;
  title: string;
  onClose: () => void;
  preload?: "none" | "metadata";
  poster?: string;
  playOnOpen?: boolean;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const [mobile, setMobile] = useState(false);
  const [started, setStarted] = useState(false);
  const [failed, setFailed] = useState(false);
  const recoveries = useRef(0);
  const resumeAt = useRef<number | null>(null);
  const stallTimer = useRef<number | null>(null);
  const loadTimer = useRef<number | null>(null);

  const clearTimers = useCallback(() => {
    if (stallTimer.current !== null) window.clearTimeout(stallTimer.current);
    if (loadTimer.current !== null) window.clearTimeout(loadTimer.current);
    stallTimer.current = null;
    loadTimer.current = null;
  }, []);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (src) {
      const onPhone = isMobileDevice();
      setMobile(onPhone);
      setStarted(false);
      setFailed(false);
      recoveries.current = 0;
      if (!dialog.open) dialog.showModal();
      if (playOnOpen && !onPhone) void videoRef.current?.play().catch(() => undefined);
    } else {
      clearTimers();
      videoRef.current?.pause();
      if (dialog.open) dialog.close();
    }
  }, [src, clearTimers, playOnOpen]);

  useEffect(() => clearTimers, [clearTimers]);

  const startLoadTimeout = useCallback(() => {
    if (loadTimer.current !== null) window.clearTimeout(loadTimer.current);
    loadTimer.current = window.setTimeout(() => {
      const video = videoRef.current;
      if (video && video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) setFailed(true);
    }, MOBILE_LOAD_TIMEOUT_MS);
  }, []);

  const tapToStart = () => {
    setStarted(true);
    startLoadTimeout();
    void videoRef.current?.play().catch(() => undefined);
  };

  const reload = () => {
    setFailed(false);
    clearTimers();
    recoveries.current = 0;
    // A short pause lets the element drop the broken connection before asking again.
    window.setTimeout(() => {
      const video = videoRef.current;
      if (!video) return;
      video.load();
      if (mobile) startLoadTimeout();
      void video.play().catch(() => undefined);
    }, RELOAD_DELAY_MS);
  };

  const onStall = () => {
    if (stallTimer.current !== null) return;
    stallTimer.current = window.setTimeout(() => {
      stallTimer.current = null;
      const video = videoRef.current;
      if (!video || video.paused || video.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA) return;
      if (recoveries.current >= MAX_BUFFERING_RECOVERIES) {
        setFailed(true);
        return;
      }
      recoveries.current++;
      // Reconnect and carry on where it stopped (the position can be set once metadata is back).
      resumeAt.current = video.currentTime;
      video.load();
      void video.play().catch(() => undefined);
    }, STALL_GRACE_MS);
  };

  const onPlaying = () => {
    if (stallTimer.current !== null) window.clearTimeout(stallTimer.current);
    stallTimer.current = null;
  };

  const onLoaded = () => {
    if (loadTimer.current !== null) window.clearTimeout(loadTimer.current);
    loadTimer.current = null;
  };

  return (
    <dialog
      ref={dialogRef}
      onClose={onClose}
      aria-labelledby="video-player-title"
      className="m-auto w-[min(56rem,calc(100vw-1.5rem))] overflow-hidden rounded-2xl bg-zinc-950 p-0 text-white shadow-2xl backdrop:bg-black/70"
    >
      {src ? (
        <div>
          <div className="flex items-center gap-3 px-4 py-3">
            <h2 id="video-player-title" className="min-w-0 flex-1 truncate text-sm font-semibold">
              {title}
            </h2>
            <button
              type="button"
              onClick={() => dialogRef.current?.close()}
              className="rounded-lg px-3 py-1.5 text-sm text-zinc-200 hover:bg-white/10"
            >
              閉じる
            </button>
          </div>
          <div className="relative aspect-video bg-black">
            <video
              ref={videoRef}
              src={src}
              controls
              playsInline
              preload={preload}
              poster={poster}
              aria-label={`${title} の動画`}
              className="h-full w-full"
              onError={() => {
                clearTimers();
                setFailed(true);
              }}
              onLoadedMetadata={(event) => {
                if (resumeAt.current !== null) event.currentTarget.currentTime = resumeAt.current;
                resumeAt.current = null;
              }}
              onLoadedData={onLoaded}
              onWaiting={onStall}
              onStalled={onStall}
              onPlaying={onPlaying}
            />
            {mobile && !started && !failed ? (
              <button
                type="button"
                onClick={tapToStart}
                className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-black/60 text-white"
              >
                <span
                  aria-hidden="true"
                  className="flex h-16 w-16 items-center justify-center rounded-full bg-white/90 text-zinc-900"
                >
                  <svg viewBox="0 0 24 24" className="ml-1 h-8 w-8" fill="currentColor">
                    <path d="M8 5v14l11-7z" />
                  </svg>
                </span>
                <span className="text-base font-semibold">タップして再生</span>
              </button>
            ) : null}
            {failed ? (
              <div
                role="alert"
                className="absolute inset-0 flex flex-col items-center justify-center gap-4 bg-zinc-900/95 px-6 text-center"
              >
                <p className="font-semibold">動画を再生できませんでした</p>
                <p className="text-sm text-zinc-300">
                  通信状況をご確認のうえ、再読み込みするか新しいタブで開いてください。
                </p>
                <div className="flex flex-wrap justify-center gap-3">
                  <a
                    href={src}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="btn bg-white text-zinc-900 hover:bg-zinc-100"
                  >
                    新しいタブで開く
                  </a>
                  <button
                    type="button"
                    onClick={reload}
                    className="btn border border-white/40 text-white hover:bg-white/10"
                  >
                    再読み込み
                  </button>
                </div>
              </div>
            ) : null}
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
