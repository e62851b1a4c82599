import { describe, expect, it, vi } from "vitest";
import { ConfigError } from "~/server/core/env/config-report.server";
import { parseEnv } from "~/server/core/env.server";

const good = { DATABASE_PATH: "./data/test.db", PAYMENT_PROVIDER: "test" };

describe("configuration", () => {
  it("accepts an empty environment in development with defaults", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_PATH).toBe("./data/shop.db");
    expect(env.SECURE_COOKIES).toBe(false);
    expect(env.DOWNLOAD_EXPIRY_DAYS).toBe(30);
  });

  it.each(["abc", "0", "70000", "3.5"])("refuses PORT=%s naming the variable", (port) => {
    expect(() => parseEnv({ ...good, PORT: port })).toThrowError(/PORT/);
  });

  it.each(["", "   ", ":memory:", "/tmp/", "/tmp"])(
    "refuses DATABASE_PATH=%j naming the variable",
    (value) => {
      expect(() => parseEnv({ DATABASE_PATH: value })).toThrowError(/DATABASE_PATH/);
    },
  );

  it("refuses a DATABASE_PATH under a file", () => {
    expect(() => parseEnv({ DATABASE_PATH: `${process.cwd()}/package.json/shop.db` })).toThrowError(
      /DATABASE_PATH/,
    );
  });

  it("requires SESSION_SECRET in production", () => {
    expect(() => parseEnv({ ...good, NODE_ENV: "production" })).toThrowError(ConfigError);
    expect(() => parseEnv({ ...good, NODE_ENV: "production" })).toThrowError(
      /SESSION_SECRET: 本番環境では必須です/,
    );
    expect(() => parseEnv({ ...good, NODE_ENV: "production", SESSION_SECRET: "short" })).toThrowError(
      /SESSION_SECRET/,
    );
  });

  it("production refuses to start without ENCRYPTION_KEY instead of deriving it from a session secret", () => {
    const production = { ...good, NODE_ENV: "production", SESSION_SECRET: "s".repeat(40) };
    expect(() => parseEnv(production)).toThrowError(/ENCRYPTION_KEY: 本番環境では必須です/);
    expect(() => parseEnv({ ...production, ENCRYPTION_KEY: "short" })).toThrowError(/ENCRYPTION_KEY/);
    expect(parseEnv({ ...production, ENCRYPTION_KEY: "k".repeat(32) }).ENCRYPTION_KEY).toBe("k".repeat(32));
    // Development and tests still derive one, from the oldest session secret as before.
    expect(parseEnv({ SESSION_SECRET: `${"n".repeat(32)},${"o".repeat(32)}` }).ENCRYPTION_KEY).toBe(
      "o".repeat(32),
    );
  });

  it("retiring the oldest session secret leaves stored authenticator secrets readable", async () => {
    const saved = { ...process.env };
    const secretBox = async (sessionSecrets: string) => {
      vi.resetModules();
      Object.assign(process.env, {
        NODE_ENV: "production",
        SESSION_SECRET: sessionSecrets,
        ENCRYPTION_KEY: "e".repeat(40),
      });
      return import("~/server/core/secret-box.server");
    };
    try {
      const sealed = (await secretBox(`${"n".repeat(32)},${"o".repeat(32)}`)).seal("JBSWY3DPEHPK3PXP");
      // The old secret is retired: only the new one is configured now.
      expect((await secretBox("n".repeat(32))).open(sealed)).toBe("JBSWY3DPEHPK3PXP");
    } finally {
      process.env = saved;
      vi.resetModules();
    }
  });

  it("takes comma-separated session secrets for rotation, newest first", () => {
    const env = parseEnv({
      ...good,
      NODE_ENV: "production",
      SESSION_SECRET: `${"a".repeat(32)}, ${"b".repeat(40)}`,
      ENCRYPTION_KEY: "k".repeat(32),
    });
    expect(env.SESSION_SECRETS).toEqual(["a".repeat(32), "b".repeat(40)]);
  });

  describe("the test payment provider is chosen explicitly", () => {
    const unset = { DATABASE_PATH: "./data/test.db" };
    const production = {
      ...unset,
      NODE_ENV: "production",
      SESSION_SECRET: "s".repeat(40),
      ENCRYPTION_KEY: "k".repeat(32),
    };
    const stripeKeys = { STRIPE_SECRET_KEY: "sk_live_x", STRIPE_PUBLISHABLE_KEY: "pk_live_x" };

    it("production refuses to start with neither Stripe keys nor PAYMENT_PROVIDER=test", () => {
      expect(() => parseEnv(production)).toThrowError(/PAYMENT_PROVIDER: 本番環境では、Stripe のキー/);
    });

    it("production takes test payments only when told so, and Stripe when its keys are set", () => {
      expect(parseEnv({ ...production, PAYMENT_PROVIDER: "test" }).PAYMENT_PROVIDER).toBe("test");
      expect(parseEnv({ ...production, ...stripeKeys }).PAYMENT_PROVIDER).toBe("stripe");
      expect(parseEnv({ ...production, ...stripeKeys, PAYMENT_PROVIDER: "stripe" }).PAYMENT_PROVIDER).toBe(
        "stripe",
      );
      // Said explicitly, test wins over keys left in the environment (a staging copy of production).
      expect(parseEnv({ ...production, ...stripeKeys, PAYMENT_PROVIDER: "test" }).PAYMENT_PROVIDER).toBe(
        "test",
      );
    });

    it("refuses PAYMENT_PROVIDER=stripe without a key, and an unknown provider", () => {
      expect(() => parseEnv({ ...unset, PAYMENT_PROVIDER: "stripe" })).toThrowError(
        /STRIPE_SECRET_KEY: PAYMENT_PROVIDER=stripe では必須です/,
      );
      expect(() => parseEnv({ ...unset, PAYMENT_PROVIDER: "paypal" })).toThrowError(
        /PAYMENT_PROVIDER: stripe か test を指定してください/,
      );
    });

    it("development and tests without keys use the test provider", () => {
      expect(parseEnv(unset).PAYMENT_PROVIDER).toBe("test");
      expect(parseEnv({ ...unset, NODE_ENV: "test" }).PAYMENT_PROVIDER).toBe("test");
    });
  });

  it("marks cookies secure only for an https site, and refuses test hooks there", () => {
    expect(parseEnv({ ...good, SITE_URL: "https://shop.example.jp" }).SECURE_COOKIES).toBe(true);
    expect(() =>
      parseEnv({ ...good, SITE_URL: "https://shop.example.jp", ENABLE_TEST_HOOKS: "true" }),
    ).toThrowError(/ENABLE_TEST_HOOKS/);
  });

  it("names every bad variable at once", () => {
    try {
      parseEnv({ PORT: "x", SMTP_URL: "http://mail", MAIL_FROM: "nope", DOWNLOAD_EXPIRY_DAYS: "0" });
      expect.unreachable();
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ["PORT", "SMTP_URL", "MAIL_FROM", "DOWNLOAD_EXPIRY_DAYS"])
        expect(message).toContain(name);
    }
  });
});

describe("paired variables", () => {
  it("needs ADMIN_EMAIL and ADMIN_PASSWORD together", () => {
    expect(() => parseEnv({ ...good, ADMIN_EMAIL: "a@b.jp" })).toThrowError(/ADMIN_PASSWORD/);
  });
});

describe("object storage (STORAGE_URL)", () => {
  const bucket = {
    STORAGE_URL: "s3://shop-media/videos/",
    S3_ENDPOINT: "https://account.r2.cloudflarestorage.com",
    S3_REGION: "auto",
    S3_ACCESS_KEY_ID: "key-id",
    S3_SECRET_ACCESS_KEY: "secret",
  };

  it("unset, the files stay in MEDIA_DIR", () => {
    expect(parseEnv(good).S3).toBeNull();
  });

  it("reads the bucket, the prefix (one trailing slash) and the keys", () => {
    expect(parseEnv({ ...good, ...bucket, S3_PUBLIC_BASE_URL: "https://media.example.jp/" }).S3).toEqual({
      bucket: "shop-media",
      prefix: "videos/",
      endpoint: "https://account.r2.cloudflarestorage.com",
      region: "auto",
      accessKeyId: "key-id",
      secretAccessKey: "secret",
      forcePathStyle: false,
      publicBaseUrl: "https://media.example.jp",
    });
    expect(parseEnv({ ...good, ...bucket, STORAGE_URL: "s3://shop-media" }).S3?.prefix).toBe("");
    expect(parseEnv({ ...good, ...bucket, S3_FORCE_PATH_STYLE: "true" }).S3?.forcePathStyle).toBe(true);
  });

  it("names the variable that is wrong or missing", () => {
    expect(() => parseEnv({ ...good, ...bucket, STORAGE_URL: "https://shop-media" })).toThrowError(
      /STORAGE_URL: s3:\/\/バケット名/,
    );
    expect(() => parseEnv({ ...good, ...bucket, STORAGE_URL: "s3://Shop_Media" })).toThrowError(
      /STORAGE_URL/,
    );
    expect(() => parseEnv({ ...good, ...bucket, S3_REGION: "" })).toThrowError(
      /S3_REGION: STORAGE_URL を指定/,
    );
    expect(() => parseEnv({ ...good, ...bucket, S3_SECRET_ACCESS_KEY: "" })).toThrowError(
      /S3_SECRET_ACCESS_KEY/,
    );
    expect(() => parseEnv({ ...good, ...bucket, S3_ENDPOINT: "not a url" })).toThrowError(/S3_ENDPOINT/);
    expect(() => parseEnv({ ...good, ...bucket, S3_FORCE_PATH_STYLE: "yes" })).toThrowError(
      /S3_FORCE_PATH_STYLE/,
    );
    expect(() =>
      parseEnv({ ...good, ...bucket, S3_PUBLIC_BASE_URL: "https://cdn.example.jp/?a=1" }),
    ).toThrowError(/S3_PUBLIC_BASE_URL/);
    // S3 settings without a bucket are a mistake, not something to ignore.
    expect(() => parseEnv({ ...good, S3_ENDPOINT: bucket.S3_ENDPOINT })).toThrowError(
      /S3_ENDPOINT: STORAGE_URL と一緒に/,
    );
  });

  it("needs chunks of at least 5 MiB with object storage (one S3 part per chunk)", () => {
    expect(() => parseEnv({ ...good, ...bucket, UPLOAD_CHUNK_BYTES: "65536" })).toThrowError(
      /UPLOAD_CHUNK_BYTES: STORAGE_URL（オブジェクトストレージ）では 5242880/,
    );
    expect(parseEnv({ ...good, ...bucket, UPLOAD_CHUNK_BYTES: "5242880" }).UPLOAD_CHUNK_BYTES).toBe(5242880);
    expect(parseEnv({ ...good, UPLOAD_CHUNK_BYTES: "65536" }).UPLOAD_CHUNK_BYTES).toBe(65536);
  });
});
