import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { NotFound, ValidationError } from "#worker/services/shared/errors.ts";
import { createServices } from "#worker/services/index.ts";
import { clearContent, makeBlog, makeUser } from "../support/factories";

const services = () => createServices(env);
const at = (day: number) => new Date(Date.UTC(2026, 0, day, 9)).toISOString();

describe("blog service", () => {
  let titles: string[] = [];

  beforeAll(async () => {
    await clearContent();
    const author = await makeUser({ name: "Ada" });
    titles = [];
    for (let day = 1; day <= 9; day++) {
      const blog = await makeBlog(author, { title: `Day ${day}`, dateTime: at(day) });
      titles.push(blog.title);
    }
  });

  it("lists the latest six, newest first", async () => {
    const latest = await services().blogs.latest();
    expect(latest.map((b) => b.title)).toEqual(["Day 9", "Day 8", "Day 7", "Day 6", "Day 5", "Day 4"]);
    expect(latest[0]).toMatchObject({ author_name: "Ada", likes: 0, category: "Technology" });
    expect(latest[0]?._id).toMatch(/^[0-9a-z]{20}$/);
  });

  it("pages through all blogs with the total", async () => {
    const page2 = await services().blogs.page({ page: 2, limit: 4 });
    expect(page2.items.map((b) => b.title)).toEqual(["Day 5", "Day 4", "Day 3", "Day 2"]);
    expect(page2).toMatchObject({ total: 9, page: 2, limit: 4, pages: 3 });
    const last = await services().blogs.page({ page: 3, limit: 4 });
    expect(last.items.map((b) => b.title)).toEqual(["Day 1"]);
  });

  it("refuses nonsense page input (a 400) and caps the limit", async () => {
    await expect(services().blogs.page({ page: "-3", limit: "abc" }, 4)).rejects.toBeInstanceOf(ValidationError);
    const none = await services().blogs.page({}, 4);
    expect(none).toMatchObject({ page: 1, limit: 4 });
    const huge = await services().blogs.page({ page: 1, limit: 10_000 });
    expect(huge.limit).toBe(50);
    expect(huge.items).toHaveLength(9);
  });

  it("finds one blog by id, and says NotFound for unknown or malformed ids", async () => {
    const [first] = await services().blogs.latest(1);
    expect((await services().blogs.byId(first!._id)).title).toBe("Day 9");
    await expect(services().blogs.byId("zzzzzzzzzzzzzzzzzzzz")).rejects.toBeInstanceOf(NotFound);
    await expect(services().blogs.byId("'; drop table blogs;--")).rejects.toBeInstanceOf(NotFound);
  });
});
