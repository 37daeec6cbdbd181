import { expect, test } from "./fixtures";
import { expectNoSeriousA11yViolations } from "./axe";
import { ACCOUNTS, VIEWPORTS, localD1, screenshots, signIn } from "./support";

/** Issue 47, "Admin": what an admin meets once they stay. */
test.describe("issue 47: admin", () => {
  test("every entry of the admin's dashboard menu has its icon, Privacy Policy and Terms of Use too", async ({
    page,
  }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.admin);
    await page.goto("/dashboard");
    const menu = page.getByRole("navigation", { name: /dashboard/i }).first();
    for (const name of ["Privacy Policy", "Terms of Use", "Fediverse", "Settings"]) {
      await expect(menu.getByRole("link", { name }).locator("svg")).toHaveCount(1);
    }
    await expectNoSeriousA11yViolations(page);
    await page.emulateMedia({ colorScheme: "light" });
    await screenshots(page, "w47-admin-menu-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await screenshots(page, "w47-admin-menu-dark");
  });
});

test.describe("issue 47: Manage Users", () => {
  test("shows whether each address is confirmed, when they joined and their posts; filters by role and confirmation; an imported author is not staff", async ({
    page,
  }) => {
    const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    // An author a WordPress import brought in ("admin" at local@host.null): no password, no Google, never confirmed.
    const imported = `local-${tag}@host.null`;
    localD1(
      `INSERT INTO users (id, name, email, role, created_at, updated_at) VALUES ('imp${tag}', 'admin', '${imported}', 'user', 1300000000000, 1300000000000)`,
    );
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.admin);

    await page.goto(`/dashboard/manageUsers?q=${encodeURIComponent(imported)}`);
    const table = page.getByRole("table", { name: "Users" });
    for (const header of ["Confirmed", "Joined", "Posts"]) {
      await expect(table.getByRole("columnheader", { name: header })).toBeVisible();
    }
    const row = table.getByRole("row").filter({ hasText: imported });
    await expect(row).toContainText("Imported author");
    await expect(row).toContainText("Cannot sign in");
    await expect(row).toContainText("Not confirmed");
    await expect(row.locator("time")).toHaveAttribute("datetime", "2011-03-13T07:06:40.000Z");
    await expect(row.getByRole("cell").nth(5)).toHaveText("0");
    // Nobody can sign in as it: it is offered no admin rights.
    await expect(row.getByRole("button", { name: /Make Admin/ })).toHaveCount(0);

    // The admin: confirmed, with their posts counted.
    await page.goto(`/dashboard/manageUsers?q=${encodeURIComponent(ACCOUNTS.admin.email)}`);
    const me = table.getByRole("row").filter({ hasText: ACCOUNTS.admin.email });
    await expect(me).toContainText("Confirmed");
    await expect(me).not.toContainText("Not confirmed");

    // The filters, sent with the search: admins only leaves the imported "admin" out; not confirmed keeps it.
    await page.goto("/dashboard/manageUsers");
    await page.getByLabel("Search users by name or email").fill(imported);
    await page.getByLabel("Role").selectOption("admin");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/role=admin/);
    await expect(page.getByText("No account matches this search.")).toBeVisible();
    await page.getByLabel("Role").selectOption("");
    await page.getByLabel("Address confirmed").selectOption("no");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/confirmed=no/);
    await expect(table.getByRole("row").filter({ hasText: imported })).toHaveCount(1);
    await page.getByLabel("Address confirmed").selectOption("yes");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/confirmed=yes/);
    await expect(page.getByText("No account matches this search.")).toBeVisible();

    await page.goto("/dashboard/manageUsers?confirmed=no");
    await expectNoSeriousA11yViolations(page);
    await page.emulateMedia({ colorScheme: "light" });
    await screenshots(page, "w47-manage-users-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await screenshots(page, "w47-manage-users-dark");
  });
});

test.describe("issue 47: the Fediverse page", () => {
  test("shows the site's handle, its followers and its writers', and how deliveries fare, above the blocks", async ({
    page,
  }) => {
    await page.setViewportSize(VIEWPORTS.desktop);
    await signIn(page, ACCOUNTS.admin);
    await page.goto("/dashboard/fediverse");
    const status = page.getByRole("region", { name: "On the fediverse" });
    await expect(status.getByText(/^@[a-z0-9_]+@[^@\s]+$/).first()).toBeVisible();
    await expect(status.getByText("The site's handle")).toBeVisible();
    await expect(status.getByText("Followers in all")).toBeVisible();
    await expect(status.getByText("Deliveries, last 24 hours")).toBeVisible();
    await expect(status.getByRole("heading", { name: "Writers' followers" })).toBeVisible();
    // The blocks stay below.
    await expect(page.getByLabel("Account URL, handle or server name")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.emulateMedia({ colorScheme: "light" });
    await screenshots(page, "w47-fediverse-status-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await screenshots(page, "w47-fediverse-status-dark");
  });
});
