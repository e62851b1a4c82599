import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

/** The real start-up path: the server module refuses to load with a bad value and names it. */
function startWith(env: Record<string, string>) {
  return spawnSync(
    "npx",
    ["tsx", "-e", "import('./app/server/startup.server.ts').then((m) => m.startUp())"],
    {
      cwd: process.cwd(),
      env: { ...process.env, ...env },
      encoding: "utf8",
      timeout: 60_000,
    },
  );
}

describe("start-up", () => {
  it("stops on a bad PORT, naming it", () => {
    const result = startWith({ PORT: "not-a-port" });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("PORT");
  });

  it("stops on a DATABASE_PATH that is a directory, naming it", () => {
    const result = startWith({ DATABASE_PATH: "/tmp" });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("DATABASE_PATH");
  });

  it("stops in production without SESSION_SECRET, naming it", () => {
    const result = startWith({ NODE_ENV: "production", SESSION_SECRET: "" });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("SESSION_SECRET");
  });

  it("stops in production without ENCRYPTION_KEY, naming it", () => {
    const result = startWith({ NODE_ENV: "production", SESSION_SECRET: "s".repeat(40), ENCRYPTION_KEY: "" });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("ENCRYPTION_KEY");
  });

  it("stops in production with neither Stripe keys nor PAYMENT_PROVIDER=test, naming it", () => {
    const production = {
      NODE_ENV: "production",
      SESSION_SECRET: "s".repeat(40),
      ENCRYPTION_KEY: "k".repeat(40),
    };
    const refused = startWith({ ...production, PAYMENT_PROVIDER: "" });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("PAYMENT_PROVIDER");
    // Said explicitly, the same shop starts and says that no money moves.
    const started = startWith({ ...production, PAYMENT_PROVIDER: "test" });
    expect(started.stderr).not.toContain("設定エラー");
    expect(started.stdout).toContain("決済: テストモード");
  });
});
