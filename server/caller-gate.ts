import type { CallerGateReading } from "../app/server/metrics/registry.server";

/**
 * The server shared fairly between callers. One process answers everybody, so a caller who keeps
 * sixty requests in flight (a script, a flood of wrong passwords) would otherwise take sixty
 * turns of the event loop for each turn of the parent next to it: measured on this server, a
 * login from another address waited 5–10 s under such a flood even though every flooded request
 * was refused cheaply (429) by the login's own limits. Here each caller (an IPv4 address, an IPv6
 * /64) has at most IN_FLIGHT requests inside the app; more wait in the caller's own line, which
 * costs no CPU; past WAITING the request is refused at once with 429 before anything renders.
 * A browser needs a few at once (a page, its data, a fetcher); a family behind one home router,
 * a few more. Static files do not pass through here.
 *
 * A caller is often many people (a venue's Wi-Fi, a carrier's NAT), so a turn that is never given
 * back shuts all of them out: every turn is tied to its request's end (`ended`, which the edge
 * aborts when the answer has gone or the connection closed) before the request waits, a waiter
 * whose request ends leaves the line at once, and a turn held past TURN_MAX_MS is taken back
 * whatever holds it, so that no bug of that kind can lock an address for good.
 */
export const IN_FLIGHT_PER_CALLER = 8;
export const WAITING_PER_CALLER = 32;
/**
 * Longer than a request's own work can take: Node's server gives a request 300 s to arrive
 * (requestTimeout), a page's render is cut after 5 s (entry.server's ABORT_DELAY), and an upload's
 * chunk is 50 MiB. Only a download of a large original to a slow phone streams for longer; its
 * turn is then no longer counted (it costs the event loop next to nothing), and the log says so.
 */
export const TURN_MAX_MS = 15 * 60_000;

export type GateOutcome = "admitted" | "refused" | "gone";

type Waiter = { admit: () => void };
type Line = { running: number; waiting: Waiter[] };

export type GateOptions = {
  inFlight?: number;
  maxWaiting?: number;
  turnMaxMs?: number;
  /** Told when a turn is taken back (the edge logs it, naming the request). */
  onTakenBack?: (caller: string, heldMs: number, what: string) => void;
};

export class CallerGate {
  private readonly lines = new Map<string, Line>();
  private readonly inFlight: number;
  private readonly maxWaiting: number;
  private readonly turnMaxMs: number;
  private readonly onTakenBack: GateOptions["onTakenBack"];
  private refused = 0;
  private takenBack = 0;
  private longestWaitMs = 0;

  constructor({
    inFlight = IN_FLIGHT_PER_CALLER,
    maxWaiting = WAITING_PER_CALLER,
    turnMaxMs = TURN_MAX_MS,
    onTakenBack,
  }: GateOptions = {}) {
    this.inFlight = inFlight;
    this.maxWaiting = maxWaiting;
    this.turnMaxMs = turnMaxMs;
    this.onTakenBack = onTakenBack;
  }

  /**
   * A turn for `caller`'s request, which ends when `ended` aborts: then its turn is given back (to
   * the next in its line), or, while it waits, its place in the line. Resolves `admitted` when the
   * request may go in, `refused` when the line is full (answer 429), `gone` when the request ended
   * while it waited (nothing left to answer). `what` names the request in the log.
   */
  async enter(caller: string, ended: AbortSignal, what = ""): Promise<GateOutcome> {
    if (ended.aborted) return "gone";
    let line = this.lines.get(caller);
    if (!line) {
      line = { running: 0, waiting: [] };
      this.lines.set(caller, line);
    }
    if (line.running >= this.inFlight) {
      if (line.waiting.length >= this.maxWaiting) {
        this.refused++;
        return "refused";
      }
      const waitingLine = line;
      const since = performance.now();
      // The turn is handed over by the request that ends, so nobody slips in between.
      const admitted = await new Promise<boolean>((resolve) => {
        const waiter: Waiter = {
          admit: () => {
            ended.removeEventListener("abort", leaveLine);
            resolve(true);
          },
        };
        const leaveLine = () => {
          const at = waitingLine.waiting.indexOf(waiter);
          if (at !== -1) waitingLine.waiting.splice(at, 1);
          resolve(false);
        };
        waitingLine.waiting.push(waiter);
        ended.addEventListener("abort", leaveLine, { once: true });
      });
      this.longestWaitMs = Math.max(this.longestWaitMs, performance.now() - since);
      if (!admitted) {
        this.forget(caller, waitingLine);
        return "gone";
      }
    } else {
      line.running++;
    }
    this.holdTurn(caller, line, ended, what);
    return "admitted";
  }

  /** The turn is given back once, when the request ends or TURN_MAX_MS has passed. */
  private holdTurn(caller: string, line: Line, ended: AbortSignal, what: string): void {
    const since = performance.now();
    let given = false;
    const giveBack = () => {
      if (given) return;
      given = true;
      clearTimeout(timer);
      ended.removeEventListener("abort", giveBack);
      const next = line.waiting.shift();
      if (next) return next.admit();
      line.running--;
      this.forget(caller, line);
    };
    const timer = setTimeout(() => {
      this.takenBack++;
      this.onTakenBack?.(caller, performance.now() - since, what);
      giveBack();
    }, this.turnMaxMs);
    timer.unref();
    // An end that came while the request waited (or just now) gives the turn straight back.
    if (ended.aborted) return giveBack();
    ended.addEventListener("abort", giveBack, { once: true });
  }

  private forget(caller: string, line: Line): void {
    if (line.running === 0 && line.waiting.length === 0 && this.lines.get(caller) === line)
      this.lines.delete(caller);
  }

  /** For /metrics: counts since start, the lines now, and the longest wait since the last reading. */
  reading(): CallerGateReading {
    let waiting = 0;
    let longestLine = 0;
    for (const line of this.lines.values()) {
      waiting += line.waiting.length;
      longestLine = Math.max(longestLine, line.waiting.length);
    }
    const longestWaitMs = this.longestWaitMs;
    this.longestWaitMs = 0;
    return { refused: this.refused, takenBack: this.takenBack, waiting, longestLine, longestWaitMs };
  }

  /** Callers with requests inside or waiting (for tests). */
  get callers(): number {
    return this.lines.size;
  }
}
