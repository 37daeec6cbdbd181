import { configOf } from "#worker/config.ts";
import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { buttonClass } from "#app/components/ui.tsx";
import {
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { FlashMessage } from "#app/components/FlashMessage.tsx";
import { Footer } from "#app/components/Footer.tsx";
import { clearFlashCookie, readFlash } from "#app/lib/flash.server.ts";
import { TopBar } from "#app/components/TopBar.tsx";
import { VerifyEmailBanner } from "#app/components/VerifyEmailBanner.tsx";
import { InlineStyles } from "#app/lib/inline-css.tsx";
import { THEME_SCRIPT } from "#app/lib/theme.ts";
import { BEACON_PIXEL, BEACON_SCRIPT } from "#app/lib/beacon.ts";
import { useCspNonce } from "#app/lib/csp-nonce.ts";
import { DEFAULT_BRAND, useBrand } from "#app/lib/site-name.ts";
import { useHydratesPage, useReadingIslands } from "#app/lib/reading-page.ts";
import { logError } from "#worker/log.ts";

export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export async function loader({ context, request }: LoaderFunctionArgs) {
  const { env, user } = context;
  const flash = await readFlash(request, configOf(env).sessionSecret);
  // The bell's count: only in the signed-in layout, which is personal (`private, no-store`, never a
  // shared copy: worker/cache/policy.ts). A visitor's page carries no count at all.
  const unread = user ? await context.services.notifications.unread(user) : null;
  return data(
    {
      siteName: configOf(env).siteName,
      // A person's name; the README says to set OWNER_NAME (wrangler.toml [vars]).
      ownerName: configOf(env).ownerName,
      year: new Date().getUTCFullYear(),
      // Only what the top bar needs; never more of the account than the person's own public fields.
      user: user
        ? {
            _id: user.id,
            name: user.name,
            email: user.email,
            role: user.role,
            photoURL: user.photoURL,
            emailVerified: user.emailVerified === true,
          }
        : null,
      // Absent for a visitor: their (shared) page says nothing about notifications.
      ...(unread === null ? {} : { unread }),
      flash,
    },
    flash ? { headers: { "Set-Cookie": clearFlashCookie } } : undefined,
  );
}

/**
 * A reading page (app/lib/reading-page.ts) hydrates when this asks for it: for a signed-in person (known
 * from this loader's user), and for a page carrying a flash, whose dialog is React's. Both answers are
 * personal (never the shared copy: worker/cache/policy.ts), so the shared copy is always the scriptless one.
 */
export const handle = {
  hydrate: (data: { user?: unknown; flash?: unknown } | undefined) => Boolean(data?.user || data?.flash),
};

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: d?.siteName ?? DEFAULT_BRAND }];

export function Layout({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  // The brand comes from the root loader (SITE_NAME), never from module state: see app/lib/site-name.ts.
  const siteName = useBrand();
  // The framework's own inline scripts carry this render's nonce, and only they are allowed (worker/security/headers.ts).
  const nonce = useCspNonce();
  const hydrate = useHydratesPage();
  const islands = useReadingIslands();
  return (
    // The head script sets the theme class on <html> before React hydrates: not a mismatch to warn about.
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        {/* Before any stylesheet: the theme is on <html> before first paint (app/lib/theme.ts). */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
        {/* The whole stylesheet, inline: the first paint waits for no other request. */}
        <InlineStyles />
        <Meta />
        <Links />
        <link rel="alternate" type="application/rss+xml" title={siteName} href="/rss.xml" />
      </head>
      <body className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <TopBar siteName={siteName} />
        <main id="main" className="flex-1 pt-16">
          {root?.user && !root.user.emailVerified ? <VerifyEmailBanner email={root.user.email} /> : null}
          <FlashMessage flash={root?.flash ?? null} />
          {children}
        </main>
        <Footer
          siteName={siteName}
          ownerName={root?.ownerName ?? siteName}
          year={root?.year ?? new Date().getUTCFullYear()}
        />
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : (
          // An anonymous reader's reading page: no framework, only the islands (docs/decisions/059).
          <script
            nonce={nonce}
            data-slider={islands.sliderModule || undefined}
            suppressHydrationWarning
            dangerouslySetInnerHTML={{ __html: islands.script }}
          />
        )}
        {/* Analytics without cookies (app/lib/beacon.ts); without JavaScript, the pixel counts the page. */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: BEACON_SCRIPT }} />
        <noscript>
          <img src={BEACON_PIXEL} alt="" width={1} height={1} className="absolute h-px w-px" />
        </noscript>
      </body>
    </html>
  );
}

export default function App() {
  // The page's buttons are React's from here on (before, they are the no-JavaScript forms): the e2e specs
  // wait for this mark before pressing one whose JavaScript answer they check.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const forbidden = isRouteErrorResponse(error) && error.status === 403;
  if (!isRouteErrorResponse(error)) logError("page error", error);
  // A 400 thrown by a loader carries its own sentence (for example a /confirm link this site did not make).
  const refusedWith = isRouteErrorResponse(error) && error.status === 400 && typeof error.data === "string";
  // A form body past its cap (app/lib/forms.server.ts readForm) says so in its own words.
  const tooLarge = isRouteErrorResponse(error) && error.status === 413;
  const [title, text] = notFound
    ? ["Page not found", "The page you are looking for does not exist or has been moved."]
    : forbidden
      ? ["Access denied", "You do not have permission to view this page."]
      : refusedWith
        ? ["That link is not valid", error.data as string]
        : tooLarge
          ? ["Too much to send", formErrorOf(error.data) ?? "That is more than this form takes."]
          : ["Something went wrong", "An unexpected error occurred. Please try again in a moment."];
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const brand = useBrand();
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
      <title>{`${title} | ${brand}`}</title>
      <p className="text-6xl font-extrabold text-brand-600">{status}</p>
      <h1 className="mt-4 text-3xl font-bold tracking-tight">{title}</h1>
      <p className="mt-3 text-gray-600">{text}</p>
      <div className="mt-8 flex gap-3">
        <Link to="/" className={buttonClass()}>
          Go home
        </Link>
        <Link to="/allBlogs" className={buttonClass({ tone: "secondary" })}>
          Read blogs
        </Link>
      </div>
    </section>
  );
}

/** The sentence a refused form carries (the form-error shape), if any. */
function formErrorOf(data: unknown): string | null {
  const formError = (data as { formError?: unknown } | null)?.formError;
  return typeof formError === "string" ? formError : null;
}
