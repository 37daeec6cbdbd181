import { configOf } from "#worker/config.ts";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { clearSessionCookie } from "#worker/auth/cookie.ts";
import { clearReauthCookie, readReauth } from "#worker/auth/reauth.ts";
import { googleProofFresh } from "#worker/services/accounts/settings.ts";
import { brandOf } from "#app/lib/site-name.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, readForm, unknownAction } from "#app/lib/forms.server.ts";
import { refusal } from "#app/lib/form-result.ts";
import { signedInOrRedirect } from "#app/lib/guards.server.ts";
import { MSG } from "#app/lib/messages.ts";
import { ContactSection } from "./contact-section";
import { FediverseSection } from "./fediverse-section";
import { ImportSection } from "./import-section";
import { DataSection, DeleteSection, NewsletterSection } from "./account-sections.tsx";
import { EmailSection, PasswordSection } from "./sections.tsx";
import { PasskeySection, SessionsSection } from "./security-sections.tsx";
import { NotificationsSection } from "./notifications-section";
import { MembershipSection } from "./membership-section";
import { NOTIFICATION_KINDS } from "#worker/services/notifications/texts.ts";
import { containerClass } from "#app/components/ui.tsx";

export const meta: MetaFunction = ({ matches }) => [
  { title: `Settings | ${brandOf(matches)}` },
  { name: "robots", content: "noindex" },
];

const SECTIONS = [
  { id: "password", label: "Password" },
  { id: "email", label: "Email" },
  { id: "passkeys", label: "Passkeys" },
  { id: "sessions", label: "Sessions" },
  { id: "membership", label: "Membership" },
  { id: "newsletter", label: "Newsletter" },
  { id: "notifications", label: "Notifications" },
  { id: "contact-address", label: "Public contact" },
  { id: "fediverse", label: "Fediverse" },
  { id: "data", label: "Your data" },
  { id: "delete-account", label: "Delete account" },
] as const;

export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const { account, passkeys } = context.services;
  const [methods, sessions, keys, newsletterState, notificationPrefs, handle, pendingEmail, contactEmail, plan] =
    await Promise.all([
      account.signInMethods(user),
      account.listSessions(user, context.sessionId),
      passkeys.list(user),
      context.services.newsletter.stateOf(user),
      context.services.notifications.prefs(user),
      context.services.federation.actors.writer(user.id),
      context.services.emailChange.pending(user),
      account.contactEmail(user),
      context.services.members.billing.me(user),
    ]);
  const reauthAt = await readReauth(request, configOf(context.env).sessionSecret, user.id);
  return {
    user: { name: user.name, email: user.email },
    methods,
    sessions,
    passkeys: keys,
    newsletterState,
    notificationPrefs,
    pendingEmail,
    contactEmail,
    plan,
    fediverse: { handle: handle?.handle ?? "", host: context.services.federation.host },
    // A Google-only account that just proved itself with Google may delete itself or change its email.
    googleConfirmed: googleProofFresh(reauthAt),
  };
}

export async function action({ context, request }: ActionFunctionArgs) {
  const user = signedInOrRedirect(context, request);
  const form = await readForm(request);
  const { account, emailChange, passkeys } = context.services;
  const secret = configOf(context.env).sessionSecret;
  const proof = async () => ({
    password: form.get("password"),
    googleReauthAt: await readReauth(request, secret, user.id),
  });
  const done = (title: string, text?: string, hash = "") =>
    redirectWithFlash(`/settings${hash}`, { kind: "toast", title, text, icon: "success" });

  return handleForm(request, form, async () => {
    switch (form.get("intent")) {
      case "change-password":
        await account.changePassword(
          user,
          context.sessionId,
          { currentPassword: form.get("currentPassword"), newPassword: form.get("newPassword") },
          new URL(request.url).origin,
        );
        return done(MSG.settings.passwordChanged, MSG.settings.passwordChangedText, "#password");
      case "change-email": {
        const { message } = await emailChange.request(
          user,
          { newEmail: form.get("newEmail") },
          await proof(),
          new URL(request.url).origin,
        );
        return done(MSG.settings.emailLinkSent, message, "#email");
      }
      case "end-session":
        await account.endSession(user, String(form.get("sessionId") ?? ""));
        return done(MSG.settings.sessionEnded, undefined, "#sessions");
      case "end-others":
        await account.endOtherSessions(user, context.sessionId);
        return done(MSG.settings.othersEnded, undefined, "#sessions");
      case "newsletter-subscribe":
        await context.services.newsletter.subscribeAccount(user);
        return done(MSG.settings.newsletterSubscribed, undefined, "#newsletter");
      case "newsletter-unsubscribe":
        await context.services.newsletter.unsubscribeAccount(user);
        return done(MSG.settings.newsletterUnsubscribed, undefined, "#newsletter");
      case "notification-prefs":
        await context.services.notifications.setPrefs(
          user,
          Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, form.get(k) ?? undefined])),
        );
        return done(MSG.settings.notificationsSaved, undefined, "#notifications");
      case "set-contact-email":
        await account.setContactEmail(user, { contactEmail: form.get("contactEmail") });
        return done("Contact address saved", undefined, "#contact-address");
      case "set-handle":
        await context.services.federation.setHandle(user.id, { handle: form.get("handle") });
        return done("Handle saved", undefined, "#fediverse");
      // Paid memberships: cancel at the period's end, take it back, or Stripe's portal (cards, invoices, plan).
      case "membership-cancel":
      case "membership-resume":
        await context.services.members.billing.setCancel(user, form.get("intent") === "membership-cancel");
        return done("Membership updated", undefined, "#membership");
      case "membership-portal":
        return redirect((await context.services.members.billing.portal(user)).url);
      case "remove-passkey":
        await passkeys.remove(user, String(form.get("passkeyId") ?? ""));
        return done(MSG.settings.passkeyRemoved, undefined, "#passkeys");
      case "delete-account":
        await account.deleteAccount(user, await proof(), new URL(request.url).origin);
        return redirectWithFlash(
          "/",
          { kind: "toast", title: MSG.settings.accountDeleted, text: MSG.settings.accountDeletedText, icon: "success" },
          [clearSessionCookie(), clearReauthCookie()],
        );
      default:
        return unknownAction(form);
    }
  });
}

export default function Settings() {
  const data = useLoaderData<typeof loader>();
  const failure = refusal(useActionData<typeof action>());
  // Each form carries its intent, so a refusal comes back to the form that was sent.
  const failureFor = (intent: string) => (failure?.values.intent === intent ? failure : null);

  return (
    <div className="bg-gray-50/70">
      <div className={containerClass({ width: "5xl", className: "py-8 sm:py-12" })}>
        <header className="mb-8">
          <h1 className="text-3xl font-bold tracking-tight text-ink">Settings</h1>
          <p className="mt-2 text-sm text-gray-600">
            Signed in as <span className="break-all font-medium text-gray-800">{data.user.email}</span>.{" "}
            <Link to="/dashboard" className="font-semibold text-brand-700 hover:underline">
              Dashboard
            </Link>{" "}
            ·{" "}
            <Link to="/Profile" className="font-semibold text-brand-700 hover:underline">
              Profile
            </Link>
          </p>
        </header>
        <div className="lg:grid lg:grid-cols-[12rem_minmax(0,1fr)] lg:gap-8">
          <nav aria-label="Settings sections" className="mb-6 lg:mb-0">
            <ul className="flex flex-wrap gap-2 lg:sticky lg:top-24 lg:flex-col lg:gap-1">
              {SECTIONS.map((s) => (
                <li key={s.id}>
                  <a
                    href={`#${s.id}`}
                    className="block rounded-full border border-gray-200 bg-white px-3 py-1.5 text-sm font-medium text-gray-700 hover:border-brand-200 hover:text-brand-700 lg:rounded-lg lg:border-transparent lg:bg-transparent lg:px-3 lg:py-2 lg:hover:bg-white"
                  >
                    {s.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div className="flex min-w-0 flex-col gap-6">
            <PasswordSection hasPassword={data.methods.hasPassword} failure={failureFor("change-password")} />
            <EmailSection
              email={data.user.email}
              verified={data.methods.emailVerified}
              hasPassword={data.methods.hasPassword}
              googleConfirmed={data.googleConfirmed}
              pending={data.pendingEmail}
              failure={failureFor("change-email")}
            />
            <PasskeySection
              passkeys={data.passkeys}
              emailVerified={data.methods.emailVerified}
              failure={failureFor("remove-passkey")}
            />
            <SessionsSection sessions={data.sessions} failure={failureFor("end-session") ?? failureFor("end-others")} />
            <MembershipSection
              plan={data.plan}
              failure={
                failureFor("membership-cancel") ?? failureFor("membership-resume") ?? failureFor("membership-portal")
              }
            />
            <NewsletterSection
              email={data.user.email}
              verified={data.methods.emailVerified}
              state={data.newsletterState}
              failure={failureFor("newsletter-subscribe") ?? failureFor("newsletter-unsubscribe")}
            />
            <NotificationsSection
              prefs={data.notificationPrefs}
              verified={data.methods.emailVerified}
              failure={failureFor("notification-prefs")}
            />
            <ContactSection contactEmail={data.contactEmail} failure={failureFor("set-contact-email")} />
            <FediverseSection
              handle={data.fediverse.handle}
              host={data.fediverse.host}
              failure={failureFor("set-handle")}
            />
            <DataSection />
            <ImportSection />
            <DeleteSection
              hasPassword={data.methods.hasPassword}
              googleConfirmed={data.googleConfirmed}
              failure={failureFor("delete-account")}
            />
          </div>
        </div>
      </div>
    </div>
  );
}
