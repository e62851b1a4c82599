// The benchmarks' load as the server sees a burst of parents: many callers, not one. The server
// entry shares itself fairly between callers (a few requests at once each, server/caller-gate.ts),
// so 50 connections from this one loopback address would be one caller held in its line and
// refused 429. The server reads the caller from Fly-Client-IP, as on fly.io, and every request
// names a caller of its own (a parent each: per-address limits such as new drafts count each once).
import type { Request as LoadRequest } from "autocannon";

/** The environment that has the server read the caller from Fly-Client-IP. */
export const BEHIND_FLY = { TRUST_PROXY: "fly" };

let callers = 0;
/** The next caller's address: 10.0.0.1, 10.0.0.2, … (16 million before one comes again). */
function nextCaller(): string {
  callers = (callers + 1) % 0xffffff || 1;
  return `10.${callers >> 16}.${(callers >> 8) & 0xff}.${callers & 0xff}`;
}

/** autocannon's `requests`: the target's own request, from a new caller each time. */
export const EACH_REQUEST_ITS_OWN_CALLER: LoadRequest[] = [
  {
    setupRequest: (request) => ({
      ...request,
      headers: { ...request.headers, "Fly-Client-IP": nextCaller() },
    }),
  },
];
