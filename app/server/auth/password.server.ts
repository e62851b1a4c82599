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
 * by one running hash at most. The bounds keep the worst wait near a second and a half
 * (8 logins ahead, two at a time, ~0.3 s each); past them hashing is refused at once
 * (HashingBusyError, answered 429) instead of every later request waiting longer and longer.
 */
const MAX_WAITING = { check: 8, new: 4 } as const;
/** A new hash still waiting after this many logins went first is served next: never starved. */
const MAX_PASSED_OVER = 4;
/** How long a refused client is told to wait: the bounded lines drain in about two seconds. */
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

let running = 0;
let passedOver = 0;
const waiting: Record<Line, (() => void)[]> = { check: [], new: [] };

function nextWaiting(): (() => void) | undefined {
  if (waiting.new.length > 0 && (waiting.check.length === 0 || passedOver >= MAX_PASSED_OVER)) {
    passedOver = 0;
    return waiting.new.shift();
  }
  if (waiting.new.length > 0) passedOver++;
  return waiting.check.shift();
}

async function withSlot<T>(line: Line, task: () => Promise<T>): Promise<T> {
  if (running < MAX_RUNNING) {
    running++;
  } else {
    if (waiting[line].length >= MAX_WAITING[line]) throw new HashingBusyError();
    // The slot is handed over by the task that finishes, so nobody slips in between.
    await new Promise<void>((resolve) => waiting[line].push(resolve));
  }
  try {
    return await task();
  } finally {
    const next = nextWaiting();
    if (next) next();
    else running--;
  }
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
  password: string,
  salt: Buffer,
  n: number,
  r: number,
  p: number,
  length: number,
): Promise<Buffer> {
  return withSlot(
    line,
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

async function makeHash(line: Line, password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(line, password, salt, N, R, P, KEY_LENGTH);
  return ["scrypt", N, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** A new password's hash. Throws HashingBusyError when too many hashes are waiting. */
export function hashPassword(password: string): Promise<string> {
  return makeHash("new", password);
}

/** Whether a password matches its stored hash. Throws HashingBusyError when too many checks are waiting. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scrypt(
    "check",
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
export function decoyHash(): Promise<string> {
  // Made in the logins' line (it is part of one); a refused attempt is not kept, the next one retries.
  decoy ??= makeHash("check", crypto.randomBytes(16).toString("hex")).catch((error: unknown) => {
    decoy = undefined;
    throw error;
  });
  return decoy;
}
