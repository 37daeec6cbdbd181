import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ACCOUNTS, VIEWPORTS, screenshots, signIn } from "./support";

const PHOTO = readFileSync(path.resolve("seed/images/seed-avatar-jordan-reyes.jpg")).toString("base64");

/** Drops a file on the Details field as a person dragging it from their desktop would (a DataTransfer). */
async function dropFile(page: Page, name: string, type: string, base64: string) {
  await page.getByLabel("Details").evaluate(
    (textarea, file) => {
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], file.name, { type: file.type }));
      textarea.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
      textarea.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    { name, type, base64 },
  );
}

test.describe("images inside a post", () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.writer);
  });

  test("dropping an image uploads it with progress, inserts its Markdown at the cursor and shows it in the preview", async ({
    page,
  }) => {
    // Hold the answer a moment so the progress indicator can be seen.
    await page.route("**/api/images", async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.goto("/dashboard/writeBlogs");
    const details = page.getByLabel("Details");
    await details.fill("Before the picture.");
    await dropFile(page, "harbour-at-dawn.jpg", "image/jpeg", PHOTO);
    await expect(page.getByTestId("image-upload-progress")).toBeVisible();
    await expect(page.getByText(/Uploading harbour-at-dawn\.jpg… \d+%/)).toBeVisible();
    await expect(details).toHaveValue(/^Before the picture\.\n!\[harbour at dawn\]\(\/images\/[0-9a-z]+\.jpg\)\n$/);
    await expect(page.getByTestId("image-upload-progress")).toHaveCount(0);
    const img = page.getByTestId("markdown-preview").getByRole("img", { name: "harbour at dawn" });
    await expect(img).toBeVisible();
    expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    await page.getByLabel("Title").fill("An editor with an image");
    await screenshots(page, "editor-image-inserted");
  });

  test("a refused file says why, and nothing is inserted", async ({ page }) => {
    await page.goto("/dashboard/writeBlogs");
    const details = page.getByLabel("Details");
    await details.fill("Words only.");
    // Claims to be a PNG, but its bytes are text: the server sniffs the type and refuses it.
    await dropFile(page, "fake.png", "image/png", Buffer.from("not an image at all").toString("base64"));
    await expect(page.getByRole("alert").filter({ hasText: "fake.png could not be uploaded" })).toContainText(
      "Only JPEG, PNG, WebP, GIF and AVIF images are accepted.",
    );
    await expect(details).toHaveValue("Words only.");
  });

  test("Insert image picks a file and the published post shows it", async ({ page }) => {
    await page.goto("/dashboard/writeBlogs");
    await page.getByLabel("Details").fill("");
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Insert image" }).click();
    await (await chooser).setFiles({ name: "boats.jpg", mimeType: "image/jpeg", buffer: Buffer.from(PHOTO, "base64") });
    await expect(page.getByLabel("Details")).toHaveValue(/!\[boats\]\(\/images\/[0-9a-z]+\.jpg\)/);
    const markdown = await page.getByLabel("Details").inputValue();
    // An external picture becomes a link with a note in the preview (the CSP would block it anyway).
    await page.getByLabel("Details").fill(`${markdown}\nAnd ![a remote chart](https://charts.example/c.png)`);
    const preview = page.getByTestId("markdown-preview");
    await expect(preview.getByRole("link", { name: "a remote chart" })).toHaveAttribute(
      "href",
      "https://charts.example/c.png",
    );
    await expect(preview).toContainText("(an image on another site, not shown here)");

    // Published through the REST call with the same text: the post page shows the uploaded image.
    const [newest] = (await (await page.request.get("/api/latest-blogs")).json()) as { image: string }[];
    const res = await page.request.post("/api/blogs", {
      data: {
        title: `Boats in the text ${Date.now().toString(36)}`,
        short_description: "A post with an image inside.",
        blog_details: `${markdown}\nAnd ![a remote chart](https://charts.example/c.png)`,
        category: "Travel",
        date_time: new Date().toISOString(),
        image: newest!.image,
      },
    });
    expect(res.status()).toBe(201);
    const { insertedId } = (await res.json()) as { insertedId: string };
    await page.goto(`/blogs/${insertedId}`);
    const inline = page.locator("article").getByRole("img", { name: "boats" }).first();
    await expect(inline).toBeVisible();
    await expect(page.getByRole("link", { name: "a remote chart" })).toBeVisible();
  });
});
