import { expect } from "@playwright/test";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/**
 * Mail as local development reads it (README, "Mail"): `wrangler dev` writes each message's parts
 * under .wrangler/tmp/email/<session>/email-text/<id>.txt and email-html/<id>.html. Every message
 * names its recipient in its last line, so a message is found by its address.
 */
const MAIL_DIR = path.resolve(".wrangler/tmp/email");

function files(dir: string): string[] {
  let out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out = out.concat(files(full));
    else out.push(full);
  }
  return out;
}

export interface LocalMail {
  text: string;
  /** The HTML part, read from the file beside the text part. */
  html: string;
  textPath: string;
}

/** The paths of the text parts wrangler wrote at or after `since` (ms; a second's slack for file times). */
function textPartsSince(since: number): string[] {
  if (!existsSync(MAIL_DIR)) return [];
  return files(MAIL_DIR).filter((f) => f.endsWith(".txt") && statSync(f).mtimeMs >= since - 1000);
}

/** The newest message whose text part mentions `needle`, written at or after `since` (ms). Waits up to 10 s. */
export async function readMail(needle: string, since: number): Promise<LocalMail> {
  let found: string | undefined;
  await expect
    .poll(
      () => {
        found = textPartsSince(since)
          .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
          .find((f) => readFileSync(f, "utf8").includes(needle));
        return found ?? "";
      },
      { timeout: 10_000, message: `a mail mentioning ${needle} under ${MAIL_DIR}` },
    )
    .not.toBe("");
  const textPath = found!;
  const htmlPath = path.join(
    path.dirname(path.dirname(textPath)),
    "email-html",
    path.basename(textPath).replace(/\.txt$/, ".html"),
  );
  return {
    text: readFileSync(textPath, "utf8"),
    html: existsSync(htmlPath) ? readFileSync(htmlPath, "utf8") : "",
    textPath,
  };
}

/** The text parts written at or after `since` (ms) that mention every one of `needles` (no waiting). */
export function mailsMentioning(needles: string[], since: number): string[] {
  return textPartsSince(since)
    .map((f) => readFileSync(f, "utf8"))
    .filter((text) => needles.every((needle) => text.includes(needle)));
}

/** The absolute link to `pathname` in a text part (a URL ends at white space or a closing bracket). */
export function linkIn(text: string, pathname: string): URL {
  const url = (text.match(/https?:\/\/[^\s)>\]]+/g) ?? []).map((u) => new URL(u)).find((u) => u.pathname === pathname);
  if (!url) throw new Error(`no ${pathname} link in: ${text}`);
  return url;
}
