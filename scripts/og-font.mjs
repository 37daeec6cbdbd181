// Extracts the two Hershey stroke fonts the share cards use (from the hersheytext npm package, MIT)
// into worker/og/hershey.json, so the Worker bundles ~20 KB instead of the package's 330 KB.
// Run: node scripts/og-font.mjs
import { readFileSync, writeFileSync } from "node:fs";
const all = JSON.parse(
  readFileSync(new URL("../node_modules/hersheytext/hersheytext.min.json", import.meta.url), "utf8"),
);
const pick = (name) => all[name].chars.map((c) => [c.d ?? "", c.o]);
writeFileSync(
  new URL("../worker/og/hershey.json", import.meta.url),
  JSON.stringify({ regular: pick("futural"), bold: pick("futuram") }) + "\n",
);
