import { describe, expect, it } from "vitest";
import { formatMoney, minorUnit } from "#app/lib/money.ts";

/** Amounts as Stripe keeps them (minor units), as the membership pages and the dashboard show them. */
describe("formatMoney", () => {
  it("reads two-decimal currencies in their cents", () => {
    expect(formatMoney(500, "usd")).toBe("$5.00");
    expect(formatMoney(4250, "nok")).toBe("NOK\u00a042.50");
    // Stripe takes ISK as two-decimal (the last two digits 00).
    expect(formatMoney(50000, "isk")).toBe("ISK\u00a0500.00");
  });

  it("reads zero-decimal currencies as whole units, and three-decimal ones with three digits", () => {
    expect(formatMoney(500, "jpy")).toBe("¥500");
    expect(formatMoney(9900, "KRW")).toBe("₩9,900");
    expect(formatMoney(5000, "kwd")).toBe("KWD\u00a05.000");
  });

  it("an unknown code still says its amount and code", () => {
    expect(formatMoney(1234, "zzz")).toMatch(/12\.34/);
  });

  it("names the unit a price field takes", () => {
    expect([minorUnit("usd"), minorUnit("JPY"), minorUnit("kwd")]).toEqual(["cents", "whole units", "thousandths"]);
  });
});
