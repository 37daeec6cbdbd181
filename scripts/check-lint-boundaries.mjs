// Proves the import boundaries hold: each import below, written where it is forbidden, must be
// refused by the repository's own ESLint configuration. Run by `npm run lint`.
import { ESLint } from "eslint";

const eslint = new ESLint();
const cases = [
  { file: "worker/services/example.ts", code: 'import { MSG } from "#app/lib/messages.ts";\nexport const x = MSG;\n' },
  { file: "worker/api/example.ts", code: 'import { MSG } from "../../app/lib/messages";\nexport const x = MSG;\n' },
  {
    file: "app/routes/example.ts",
    code: 'import { newId } from "../../worker/services/shared/ids";\nexport const x = newId;\n',
  },
];
let failed = 0;
for (const { file, code } of cases) {
  const [result] = await eslint.lintText(code, { filePath: file });
  const refused = result.messages.some((m) => m.ruleId === "no-restricted-imports");
  console.log(`${refused ? "refused" : "ALLOWED"}  ${file}: ${code.split("\n")[0]}`);
  if (!refused) failed++;
}
// And the allowed direction stays allowed.
const [ok] = await eslint.lintText('import { newId } from "#worker/services/shared/ids";\nexport const x = newId;\n', {
  filePath: "app/routes/example.ts",
});
if (ok.messages.some((m) => m.ruleId === "no-restricted-imports")) {
  console.log("REFUSED  app/ importing #worker/ (that direction is allowed)");
  failed++;
}
if (failed) {
  console.error(`${failed} boundary check(s) failed`);
  process.exit(1);
}
