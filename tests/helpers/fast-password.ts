import crypto from "node:crypto";

/**
 * scrypt at a tiny cost, in the stored format the real verifyPassword reads its parameters
 * from. Tests about lockouts, codes and sessions use it through vi.mock so they do not spend
 * 0.3–0.6 s per hash; tests/server/auth/password.test.ts checks the real parameters.
 */
export function fastHashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = crypto.scryptSync(password.normalize("NFKC"), salt, 32, { N: 1024, r: 8, p: 1 });
  return Promise.resolve(
    ["scrypt", 1024, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$"),
  );
}

let decoy: Promise<string> | undefined;
export function fastDecoyHash(): Promise<string> {
  decoy ??= fastHashPassword(crypto.randomBytes(16).toString("hex"));
  return decoy;
}
