import crypto from "node:crypto";

/**
 * scrypt at OWASP's parameters (N=2^17, r=8, p=1): about 128 MiB and ~0.3 s per hash.
 * At most two run at once, so a burst of logins cannot exhaust a small server's memory.
 * Stored as "scrypt$N$r$p$salt$hash" so parameters can be raised later.
 */
const N = 2 ** 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAX_RUNNING = 2;

/**
 * Checking a password (a login) and making a new hash (registration, the checkout's auto-login
 * password, a password change) wait in separate lines, each with its own bound, so a flood of
 * one cannot fill the other's; a login is served first, so a flood of new passwords delays it
 * by one running hash at most. Past a bound hashing is refused at once (HashingBusyError,
 * answered 429) instead of every later request waiting longer and longer.
 *
 * The logins' line is shared fairly between callers (decision 0021): each caller's key (its
 * address, an IPv6 /64: originLimitKey) has its own small line, and a slot that comes free
 * goes to the caller with the fewest checks running, callers with as many taking turns. A
 * flood from one address fills only its own line and is refused past it, so a login from
 * elsewhere waits for the first of the running hashes to finish, and then for at most one
 * check of each other caller waiting: well under a second unless many addresses flood at once. When the logins'
 * line as a whole is full, the caller with the most waiting gives up its newest place to a
 * caller with fewer, so a newcomer is refused only when everyone has as few as she would.
 */
const MAX_WAITING = { check: 16, new: 4 } as const;
/** Checks one caller may have waiting: a household logging in at once has one or two. */
const MAX_WAITING_PER_CALLER = 4;
/** A new hash still waiting after this many logins went first is served next: never starved. */
const MAX_PASSED_OVER = 4;
/** How long a refused client is told to wait: the bounded lines drain in a few seconds. */
export const HASHING_BUSY_RETRY_AFTER_SECONDS = 5;
export const HASHING_BUSY_MESSAGE = "ただいま混み合っています。しばらくしてから再度お試しください。";

type Line = keyof typeof MAX_WAITING;

/** Hashing refused because too many hashes are already waiting. Routes answer 429 with Retry-After. */
export class HashingBusyError extends Error {
  override name = "HashingBusyError";
  readonly retryAfterSeconds = HASHING_BUSY_RETRY_AFTER_SECONDS;
  constructor() {
    super(HASHING_BUSY_MESSAGE);
  }
}

type Waiter = { caller: string; start: () => void; refuse: (error: HashingBusyError) => void };

let running = 0;
/** Checks running per caller: whom a free slot goes to. */
const runningFor = new Map<string, number>();
let passedOver = 0;
const newLine: Waiter[] = [];
/** The logins' line: each caller's waiting checks, in the order the callers take turns (a Map keeps it). */
const checkLines = new Map<string, Waiter[]>();
let checksWaiting = 0;

function nextCheck(): Waiter | undefined {
  let chosen: [string, Waiter[]] | undefined;
  for (const entry of checkLines)
    if (!chosen || (runningFor.get(entry[0]) ?? 0) < (runningFor.get(chosen[0]) ?? 0)) chosen = entry;
  if (!chosen) return undefined;
  const [caller, line] = chosen;
  const waiter = line.shift();
  checksWaiting--;
  // Served once: to the back of the turns, or out of them when nothing more waits.
  checkLines.delete(caller);
  if (line.length > 0) checkLines.set(caller, line);
  return waiter;
}

function nextWaiting(): Waiter | undefined {
  if (newLine.length > 0 && (checksWaiting === 0 || passedOver >= MAX_PASSED_OVER)) {
    passedOver = 0;
    return newLine.shift();
  }
  if (newLine.length > 0) passedOver++;
  return nextCheck();
}

/** Makes room in a full logins' line for `caller`, or says there is none for her. */
function roomForCheck(caller: string): boolean {
  if (checksWaiting < MAX_WAITING.check) return true;
  const own = checkLines.get(caller)?.length ?? 0;
  let longest: [string, Waiter[]] | undefined;
  for (const entry of checkLines) if (!longest || entry[1].length > longest[1].length) longest = entry;
  if (!longest || longest[1].length <= own + 1) return false;
  longest[1].pop()?.refuse(new HashingBusyError());
  checksWaiting--;
  return true;
}

function waitInLine(line: Line, caller: string): Promise<void> {
  return new Promise<void>((start, refuse) => {
    const waiter = { caller, start, refuse };
    if (line === "new") {
      if (newLine.length >= MAX_WAITING.new) return refuse(new HashingBusyError());
      newLine.push(waiter);
      return;
    }
    const own = checkLines.get(caller) ?? [];
    if (own.length >= MAX_WAITING_PER_CALLER || !roomForCheck(caller)) return refuse(new HashingBusyError());
    own.push(waiter);
    checkLines.set(caller, own);
    checksWaiting++;
  });
}

function counted(caller: string, change: 1 | -1): void {
  const after = (runningFor.get(caller) ?? 0) + change;
  if (after > 0) runningFor.set(caller, after);
  else runningFor.delete(caller);
}

async function withSlot<T>(line: Line, caller: string, task: () => Promise<T>): Promise<T> {
  if (running < MAX_RUNNING) {
    running++;
    counted(caller, 1);
  } else {
    // The slot is handed over (and counted) by the task that finishes, so nobody slips in between.
    await waitInLine(line, caller);
  }
  try {
    return await task();
  } finally {
    counted(caller, -1);
    const next = nextWaiting();
    if (next) {
      counted(next.caller, 1);
      next.start();
    } else running--;
  }
}

/** The hashing line now, for the metrics (app/server/metrics): hashes running, and waiting for a slot. */
export function hashingQueue(): { running: number; waiting: number } {
  return { running, waiting: newLine.length + checksWaiting };
}

export type HashingBusy = { ok: false; status: 429; message: string; retryAfterSeconds: number };

/** Runs a step that hashes; when hashing is refused, its answer is a 429 with the message to show. */
export async function unlessHashingBusy<T>(step: () => Promise<T>): Promise<T | HashingBusy> {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof HashingBusyError)) throw error;
    return { ok: false, status: 429, message: error.message, retryAfterSeconds: error.retryAfterSeconds };
  }
}

function scrypt(
  line: Line,
  caller: string,
  password: string,
  salt: Buffer,
  n: number,
  r: number,
  p: number,
  length: number,
): Promise<Buffer> {
  return withSlot(
    line,
    caller,
    () =>
      new Promise((resolve, reject) => {
        crypto.scrypt(
          password.normalize("NFKC"),
          salt,
          length,
          { N: n, r, p, maxmem: 256 * n * r },
          (error, key) => (error ? reject(error) : resolve(key)),
        );
      }),
  );
}

async function makeHash(line: Line, caller: string, password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(line, caller, password, salt, N, R, P, KEY_LENGTH);
  return ["scrypt", N, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** A new password's hash. Throws HashingBusyError when too many hashes are waiting. */
export function hashPassword(password: string): Promise<string> {
  // One line for all: new hashes are limited per address and per checkout before they get here.
  return makeHash("new", "", password);
}

/** Whose turn a check waits in when no caller is named: scripts and tests, never a login. */
const NO_CALLER = "password-check:none";

/**
 * Whether a password matches its stored hash. `caller` is whose turn it waits in: every login
 * names the client's address key (passwordCheckCaller in password-runs.server.ts). Throws
 * HashingBusyError when that caller, or the line as a whole, has too many checks waiting.
 */
export async function verifyPassword(
  password: string,
  stored: string,
  caller: string = NO_CALLER,
): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scrypt(
    "check",
    caller,
    password,
    Buffer.from(salt, "base64url"),
    Number(n),
    Number(r),
    Number(p),
    expected.length,
  );
  return crypto.timingSafeEqual(actual, expected);
}

/** A hash of a random password: compared against when an e-mail has no account, so timing does not tell. */
let decoy: Promise<string> | undefined;
const DECOY_CALLER = "password-check:decoy";
export function decoyHash(): Promise<string> {
  // Made once, in the logins' line under a turn of its own: everyone's logins for unknown
  // addresses wait for it, so it must not be refused with the places of whichever caller needed
  // it first (a flood's). A refused attempt is not kept; the next one retries.
  decoy ??= makeHash("check", DECOY_CALLER, crypto.randomBytes(16).toString("hex")).catch(
    (error: unknown) => {
      decoy = undefined;
      throw error;
    },
  );
  return decoy;
}
