import { expect, test } from "./fixtures";
import { ACCOUNTS, signIn } from "./support";

// The subscriber CSV is parsed inside the Worker. The workers pool allows code generation from strings
// and wrangler dev (like production) does not, so only this run proves the parser works where it ships.
test("an admin imports subscribers from a CSV file through the newsletter page", async ({ page }) => {
  await signIn(page, ACCOUNTS.admin);
  await page.goto("/dashboard/newsletter");
  const stamp = Date.now();
  const csv =
    "\uFEFFname,email,note\n" +
    `"Ada, Countess",ada-${stamp}@example.com,"said ""yes"" at the launch"\n` +
    `Grace,grace-${stamp}@example.com,\n` +
    "Nobody,not-an-address,\n";
  await page.getByLabel("CSV file").setInputFiles({
    name: "subscribers.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(csv, "utf8"),
  });
  await page.getByRole("button", { name: "Import CSV" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Imported 2" })).toContainText("not-an-address");

  const exported = await page.request.get("/api/newsletter/subscribers.csv");
  expect(exported.status()).toBe(200);
  const text = await exported.text();
  expect(text).toContain(`ada-${stamp}@example.com`);
  expect(text).toContain(`grace-${stamp}@example.com`);
  expect(text).not.toContain("not-an-address");
});

test("a file that is not a CSV of addresses is refused with a message, not a server error", async ({ page }) => {
  await signIn(page, ACCOUNTS.admin);
  const empty = await page.request.post("/api/newsletter/subscribers.csv", {
    headers: { "Content-Type": "text/csv" },
    data: "",
  });
  expect(empty.status()).toBe(400);
  const binary = await page.request.post("/api/newsletter/subscribers.csv", {
    headers: { "Content-Type": "text/csv" },
    data: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff, 0x22, 0x0a, 0x22, 0x22, 0x2c, 0x0a]),
  });
  expect(binary.status()).toBeLessThan(500);
  const body = await binary.json();
  expect(body.imported ?? body.error?.code).toBeDefined();
});
