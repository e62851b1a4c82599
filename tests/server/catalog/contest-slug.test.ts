import { parseForm } from "~/lib/schemas/parse-form";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newContestSchema } from "~/lib/schemas/contest-schemas";
import { basicInfoSchema } from "~/lib/schemas/contest-settings-schemas";
import { updateBasicInfo } from "~/server/catalog/contest-settings.server";
import { addContest, createContest, findContestBySlug } from "~/server/catalog/contests.server";
import { db } from "~/server/db/client.server";
import { contests } from "~/server/db/schema";
import { slugKey } from "~/lib/rules/slug";

const unique = () => Math.random().toString(36).slice(2, 8);

describe("two contests never share a slug", () => {
  it("refuses a second contest of the same name, or of a name with the same slug", () => {
    const name = `重複テスト大会 ${unique()}`;
    const first = addContest(name);
    expect(first.ok).toBe(true);
    const again = addContest(`  ${name}  `);
    expect(again).toEqual({
      ok: false,
      field: "name",
      message: `「${name}」と同じURLになるため、この大会名は使えません。別の大会名を入力してください。`,
    });
    // Spaces, dots and case do not make another slug.
    expect(addContest(name.replace(" ", "").toUpperCase() + ".").ok).toBe(false);
    expect(
      db()
        .select()
        .from(contests)
        .where(eq(contests.slugKey, slugKey(name)))
        .all(),
    ).toHaveLength(1);
    expect(() => createContest(name)).toThrow("同じURL");
  });

  it("refuses renaming a contest to another contest's slug, and keeps its own name free", () => {
    const taken = `改名先の大会${unique()}`;
    createContest(taken);
    const name = `改名する大会${unique()}`;
    const id = createContest(name);
    expect(updateBasicInfo(id, { name: taken, bibNumberLabel: "ゼッケン番号" })).toEqual({
      ok: false,
      field: "name",
      message: `「${taken}」と同じURLになるため、この大会名は使えません。別の大会名を入力してください。`,
    });
    expect(db().select().from(contests).where(eq(contests.id, id)).get()?.name).toBe(name);
    // Saving the contest under its own name (only the label changed) is not a clash.
    expect(updateBasicInfo(id, { name, bibNumberLabel: "演奏順" })).toEqual({ ok: true });
    expect(findContestBySlug(name)?.id).toBe(id);
  });

  it("the unique index refuses a duplicate slug written around the rule", () => {
    const name = `索引テスト大会${unique()}`;
    createContest(name);
    expect(() =>
      db()
        .insert(contests)
        .values({ name, slugKey: slugKey(name) })
        .run(),
    ).toThrow(/UNIQUE/);
  });

  it("refuses a name without a letter or digit (it would have no order form address)", () => {
    for (const [schema, extra] of [
      [newContestSchema, {}],
      [basicInfoSchema, { intent: "basic", bibNumberLabel: "ゼッケン番号" }],
    ] as const) {
      const form = new FormData();
      form.set("name", "・！？");
      for (const [key, value] of Object.entries(extra)) form.set(key, value);
      const submission = parseForm(form, { schema });
      expect(submission.status).toBe("error");
      expect(submission.reply().error?.name).toEqual(["大会名には文字か数字を1文字以上含めてください"]);
    }
  });
});
