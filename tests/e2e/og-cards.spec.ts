import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";

/**
 * Share cards drawn by the Worker as `wrangler dev` runs it (workerd, no code generation from strings):
 * resvg's wasm instantiates from the bundled module, the fonts come from the static assets, and a post
 * in Chinese, Greek, Arabic or Hebrew by a Chinese-named writer gets its card. The cards are kept under
 * e2e-artifacts/og/ to look at.
 */
const CARDS_DIR = path.resolve("e2e-artifacts/og");

test("a post in Chinese, Greek and accented Latin, and ones in Arabic and Hebrew, get their share cards", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const email = `og-${Date.now().toString(36)}@edgeblog.test`;
  const signup = await page.request.post("/api/auth/register", {
    data: { name: "王小明", email, password: "Cards#Everywhere2026" },
  });
  expect(signup.status()).toBe(201);
  // A cover the site already serves (a seeded post's).
  const [seeded] = (await (await page.request.get("/api/blogs?limit=1")).json()) as { image: string }[];
  mkdirSync(CARDS_DIR, { recursive: true });
  const titles = {
    cjk: "我的FTP Server 测试 — Ελληνικά café",
    arabic: "مقدمة إلى Python 3 للمبتدئين",
    hebrew: "מבוא ל-Python 3 למתחילים",
    mixed: "مقدمة إلى Python 3 — שלום עולם 你好",
  };
  for (const [name, title] of Object.entries(titles)) {
    const res = await page.request.post("/api/blogs", {
      data: {
        title,
        short_description: "A post in its own script.",
        blog_details: "Words.",
        category: "Technology",
        date_time: new Date().toISOString(),
        image: seeded!.image,
      },
    });
    expect(res.status()).toBe(201);
    const { insertedId } = (await res.json()) as { insertedId: string };
    const card = await page.request.get(`/blogs/${insertedId}/og.png`, { timeout: 60_000 });
    expect(card.status()).toBe(200);
    expect(card.headers()["content-type"]).toBe("image/png");
    const png = await card.body();
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    writeFileSync(path.join(CARDS_DIR, `${name}.png`), png);
    // The post page points crawlers at it.
    await page.goto(`/blogs/${insertedId}`);
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /\/og\.png$/);
  }
});
