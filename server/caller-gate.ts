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
 */
export const IN_FLIGHT_PER_CALLER = 8;
export const WAITING_PER_CALLER = 32;

type Line = { running: number; waiting: (() => void)[] };

export class CallerGate {
  private readonly lines = new Map<string, Line>();

  constructor(
    private readonly inFlight = IN_FLIGHT_PER_CALLER,
    private readonly maxWaiting = WAITING_PER_CALLER,
  ) {}

  /**
   * A turn for `caller`: resolves with the function that ends it (call it once the answer is
   * sent), or null when the caller's line is full and the request is to be refused.
   */
  async enter(caller: string): Promise<(() => void) | null> {
    let line = this.lines.get(caller);
    if (!line) {
      line = { running: 0, waiting: [] };
      this.lines.set(caller, line);
    }
    if (line.running >= this.inFlight) {
      if (line.waiting.length >= this.maxWaiting) return null;
      // The turn is handed over by the request that ends, so nobody slips in between.
      await new Promise<void>((resolve) => line.waiting.push(resolve));
    } else {
      line.running++;
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = line.waiting.shift();
      if (next) return next();
      line.running--;
      if (line.running === 0) this.lines.delete(caller);
    };
  }

  /** Callers with requests inside or waiting (for tests). */
  get callers(): number {
    return this.lines.size;
  }
}
