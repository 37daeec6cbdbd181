import { configOf } from "#worker/config.ts";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { brandOf, useBrand } from "#app/lib/site-name.ts";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useRef } from "react";
import { useOnActionResult } from "#app/lib/use-on-action-result.ts";
import { setSessionCookies } from "#worker/auth/cookie.ts";
import { AuthLayout, ProviderButtons } from "#app/components/AuthLayout.tsx";
import { PasskeySignIn } from "#app/components/PasskeySignIn.tsx";
import { Field, FormError, SubmitButton } from "#app/components/form.tsx";
import { alertDialog } from "#app/lib/dialogs.ts";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, readForm } from "#app/lib/forms.server.ts";
import { signedOutOnly } from "#app/lib/guards.server.ts";
import { safeRedirect } from "#worker/auth/redirect.ts";
import { MSG } from "#app/lib/messages.ts";
import { seo } from "#app/lib/seo.ts";
import { authPageUrl } from "#app/lib/auth-url.ts";
import { failureText, refusal } from "#app/lib/form-result.ts";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...seo({
    brand: brandOf(matches),
    title: "Sign in",
    description: `Sign in to ${brandOf(matches)} to write, edit and save blog posts.`,
    origin: data?.origin ?? "https://example.invalid",
    path: "/login",
  }),
];

export async function loader({ context, request }: LoaderFunctionArgs) {
  return signedOutOnly(context, request);
}

export async function action({ context, request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const redirectTo = safeRedirect(form.get("redirectTo"));
  // Wrong credentials are the expected failure here, not a reason to bounce to /login: handleForm answers
  // in the form with the reason (401) and keeps the typed email, the password never echoed.
  return handleForm(request, form, async () => {
    const secret = configOf(context.env).sessionSecret;
    const { token, user } = await context.services.users.login(
      { email: form.get("email"), password: form.get("password") },
      await context.client(),
    );
    return redirectWithFlash(
      redirectTo,
      {
        kind: "toast",
        title: MSG.login.successTitle,
        text: MSG.login.successText(configOf(context.env).siteName),
        icon: "success",
      },
      await setSessionCookies(token, user._id, secret),
    );
  });
}

export default function Login() {
  const brand = useBrand();
  const { redirectTo } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = refusal(result);
  const form = useRef<HTMLFormElement>(null);

  useOnActionResult(result, () => {
    if (!failure) return;
    form.current?.reset();
    void alertDialog(
      MSG.login.errorTitle,
      failureText(failure, MSG.login.errorTitle),
      "error",
      MSG.login.tryAgain,
    ).then(() => form.current?.querySelector<HTMLInputElement>("input[name=email]")?.focus());
  });

  return (
    <AuthLayout
      title="Sign in"
      // Whoever arrives here may be new (Write a Blog sends visitors here too): no "welcome back".
      subtitle="Sign in to write, edit and save posts. New here? Create an account in a minute."
      aside={{
        heading: "Write, save and follow.",
        text: "With an account you write posts, keep a reading list and hear from the writers you follow.",
      }}
    >
      <Form ref={form} method="post" className="flex flex-col gap-4" replace>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormError message={failure?.formError} />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={failure?.values.email ?? ""}
          error={failure?.fields.email}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={failure?.fields.password}
        />
        <p className="-mt-2 text-right text-sm">
          <Link to="/forgot-password" className="font-semibold text-brand-700 hover:underline">
            Forgot your password?
          </Link>
        </p>
        <SubmitButton pendingText="Signing in…" className="mt-2 w-full">
          Sign in
        </SubmitButton>
      </Form>
      <ProviderButtons intent="login" redirectTo={redirectTo} />
      <div className="mt-3">
        <PasskeySignIn redirectTo={redirectTo} />
      </div>
      <p className="mt-6 text-center text-sm text-gray-600">
        New to {brand}?{" "}
        <Link to={authPageUrl("/register", redirectTo)} className="font-semibold text-brand-700 hover:underline">
          Create an account
        </Link>
      </p>
    </AuthLayout>
  );
}
