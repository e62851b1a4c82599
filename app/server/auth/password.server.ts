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
const MAX_CONCURRENT = 2;

let running = 0;
const waiting: (() => void)[] = [];

async function withSlot<T>(task: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await task();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function scrypt(
  password: string,
  salt: Buffer,
  n: number,
  r: number,
  p: number,
  length: number,
): Promise<Buffer> {
  return withSlot(
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

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, N, R, P, KEY_LENGTH);
  return ["scrypt", N, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scrypt(
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
  decoy ??= hashPassword(crypto.randomBytes(16).toString("hex"));
  return decoy;
}
