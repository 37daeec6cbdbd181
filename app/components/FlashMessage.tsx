import { useEffect } from "react";
import { alertDialog, toast } from "#app/lib/dialogs.ts";
import type { Flash } from "#app/lib/flash.server.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";

/**
 * Shows the flash of the current page once: a SweetAlert2 dialog once hydrated, and a plain banner
 * in the server-rendered HTML so it is seen without JavaScript too.
 */
export function FlashMessage({ flash }: { flash: Flash | null }) {
  const hydrated = useHydrated();
  useEffect(() => {
    if (!flash) return;
    if (flash.kind === "toast") void toast(flash.title, flash.text, flash.icon ?? "success");
    else void alertDialog(flash.title, flash.text, flash.icon ?? "info");
  }, [flash]);

  if (!flash || hydrated) return null;
  const tone =
    flash.icon === "error" ? "border-red-200 bg-red-50 text-red-800" : "border-green-200 bg-green-50 text-green-800";
  return (
    <div role="status" className={`mx-auto mt-4 max-w-3xl rounded-lg border px-4 py-3 text-sm ${tone}`}>
      <strong className="font-semibold">{flash.title}</strong>
      {flash.text ? <span> {flash.text}</span> : null}
    </div>
  );
}
