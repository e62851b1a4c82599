// What `npm run demo` and `npm run worker` share: they stop, and stop what they started, when any
// process of theirs is told to. Plain Node with no dependencies (the demo runs it before installing).
import fs from "node:fs";

/** The signals that end a run: fly.io's and docker's stop, Ctrl-C, a closed terminal. */
export const STOP_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"];

/**
 * Calls `stop(signal)` once this process is told to stop, or once its parent is gone. npm passes
 * SIGTERM and SIGINT on to the script it runs, but not SIGHUP, and it runs the script through a
 * shell that does not pass signals on (the scripts say `exec` so that there is none): a parent
 * that ended without passing its signal on leaves this process to init, which the parent's
 * process id changing tells (looked at twice a second).
 */
export function stopTogether(stop) {
  let stopping = false;
  const once = (signal) => {
    if (stopping) return;
    stopping = true;
    clearInterval(watch);
    stop(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, () => once(signal));
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) once("SIGHUP");
  }, 500);
  watch.unref();
}

/**
 * A child that gets SIGTERM if this process dies without stopping it (SIGKILL, the OOM killer):
 * util-linux's setpriv sets Linux's parent-death signal and becomes the command itself, as the
 * media jobs run ffmpeg (app/server/media/jobs/ffmpeg.server.ts).
 */
export function diesWithThisProcess(command, args) {
  if (process.platform !== "linux" || !fs.existsSync("/usr/bin/setpriv")) return [command, args];
  return ["/usr/bin/setpriv", ["--pdeathsig", "TERM", "--", command, ...args]];
}
