import { describe, expect, it } from "vitest";
import { choicesOnArrival } from "~/lib/browser/order-form-storage";

/*
 * What the order form holds once its page comes to life (JS on): the choices already made on the
 * page, else those saved on an earlier visit to the same draft.
 */

const empty = { category: "", athleteId: null, formatId: null };
const kids = { category: "キッズ部門", athleteId: 1, formatId: 1 };
const junior = { category: "ジュニア部門", athleteId: 2, formatId: 2 };

describe("the order form's choices on arrival", () => {
  it("choices made on the page before its script ran are kept over those saved on an earlier visit", () => {
    expect(choicesOnArrival([kids], [empty], [junior])).toEqual({ from: "page", items: [kids] });
  });

  it("an untouched page gets the choices saved on an earlier visit to the same draft", () => {
    expect(choicesOnArrival([empty], [empty], [junior])).toEqual({ from: "saved", items: [junior] });
  });

  it("nothing to do when nothing differs from the server's draft", () => {
    expect(choicesOnArrival([kids], [kids], null)).toBeNull();
    expect(choicesOnArrival([kids], [kids], [kids])).toBeNull();
  });
});
