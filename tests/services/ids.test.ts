import { describe, expect, it, vi } from "vitest";
import { isIdShaped, newId } from "#worker/services/shared/ids.ts";

describe("ids", () => {
  it("are 20 characters of [0-9a-z] and shaped like ours", () => {
    const id = newId();
    expect(id).toMatch(/^[0-9a-z]{20}$/);
    expect(isIdShaped(id)).toBe(true);
  });

  it("draw again for bytes that would favour the first characters (no modulo bias)", () => {
    // 252..255 would map to 0..3 a second time; they must be skipped, not folded.
    const draws = [new Uint8Array([252, 253, 254, 255, 0, 35]), new Uint8Array([1, 2, 3, 4, 5, 6])];
    const spy = vi.spyOn(crypto, "getRandomValues").mockImplementation((array) => {
      const target = array as Uint8Array;
      target.set((draws.shift() ?? new Uint8Array(6)).subarray(0, target.length));
      return array;
    });
    try {
      expect(newId(6)).toBe("0z1234");
    } finally {
      spy.mockRestore();
    }
  });
});
