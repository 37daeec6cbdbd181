/**
 * Copies text for the reader: the Clipboard API, or a selection copy where clipboard access is refused
 * (permissions, an insecure origin). Used by the app's Copy buttons and by the reading pages' island.
 */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.appendChild(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}
