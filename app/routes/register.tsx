import { configOf } from "#worker/config.ts";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { brandOf, useBrand } from "#app/lib/site-name.ts";
import { LIMITS } from "#worker/services/shared/limits.ts";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useRef } from "react";
import { useOnActionResult } from "#app/lib/use-on-action-result.ts";
import { setSessionCookies } from "#worker/auth/cookie.ts";
import { PASSWORD_REQUIREMENTS } from "#worker/auth/passwords.ts";
import { AuthLayout, ProviderButtons } from "#app/components/AuthLayout.tsx";
import { EmailField, Field, FormError, SubmitButton } from "#app/components/form.tsx";
import { ImageField } from "#app/components/ImageField.tsx";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { handleForm, readForm } from "#app/lib/forms.server.ts";
import { signedOutOnly } from "#app/lib/guards.server.ts";
import { safeRedirect } from "#worker/auth/redirect.ts";
import { MSG } from "#app/lib/messages.ts";
import { seo } from "#app/lib/seo.ts";
import { authPageUrl } from "#app/lib/auth-url.ts";
import { refusal } from "#app/lib/form-result.ts";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  seo({
    brand: brandOf(matches),
    title: "Create your account",
    description: `Join ${brandOf(matches)} to write, edit and save blog posts.`,
    origin: data?.origin ?? "https://example.invalid",
    path: "/register",
  });

export async function loader({ context, request }: LoaderFunctionArgs) {
  return signedOutOnly(context, request);
}

export async function action({ context, request }: ActionFunctionArgs) {
  const form = await readForm(request, "image");
  const redirectTo = safeRedirect(form.get("redirectTo"));
  return handleForm(request, form, async () => {
    // The service checks every field and the photo before storing anything, so a refused
    // registration leaves neither an account nor an orphan image behind. A taken email is a 409 that
    // names the email field, so handleForm shows it there.
    const secret = configOf(context.env).sessionSecret;
    const { token, user } = await context.services.users.register(
      { name: form.get("name"), email: form.get("email"), password: form.get("password") },
      form.get("image"),
      await context.client(),
      // "Write a Blog" sent them here: the confirmation link's Continue goes back to writing.
      redirectTo,
    );
    return redirectWithFlash(
      redirectTo,
      { kind: "toast", title: MSG.register.successTitle, text: MSG.register.successText, icon: "success" },
      await setSessionCookies(token, user._id, secret),
    );
  });
}

export default function Register() {
  const brand = useBrand();
  const { redirectTo } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = refusal(result);
  const fields = failure?.fields ?? {};
  const values = failure?.values ?? {};
  const form = useRef<HTMLFormElement>(null);

  useOnActionResult(result, () => {
    if (!failure || !form.current) return;
    // The server never sends the password back; with JavaScript the typed one is cleared too.
    const password = form.current.querySelector<HTMLInputElement>("input[name=password]");
    if (password) password.value = "";
    const first = Object.keys(failure.fields)[0];
    if (first) form.current.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  });

  return (
    <AuthLayout
      title="Create your account"
      subtitle={`Join ${brand} and start sharing your ideas.`}
      aside={{
        heading: "Your ideas deserve readers.",
        text: "Write about what you know, learn from others, and build an audience one post at a time.",
      }}
    >
      <Form ref={form} method="post" encType="multipart/form-data" className="flex flex-col gap-4">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormError message={failure && Object.keys(fields).length === 0 ? failure.formError : undefined} />
        <Field
          label="Username"
          name="name"
          autoComplete="name"
          required
          maxLength={LIMITS.name}
          defaultValue={values.name}
          error={fields.name}
        />
        <EmailField defaultValue={values.email} error={fields.email} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          error={fields.password}
          hint={fields.password ? undefined : PASSWORD_REQUIREMENTS}
        />
        <ImageField
          label="Profile image"
          name="image"
          round
          error={fields.image}
          hint="Optional. JPEG, PNG, WebP, GIF or AVIF, up to 5 MB."
        />
        <SubmitButton pendingText="Creating your account…" className="mt-2 w-full">
          Register
        </SubmitButton>
      </Form>
      <ProviderButtons intent="register" redirectTo={redirectTo} />
      <p className="mt-6 text-center text-sm text-gray-600">
        Already have an account?{" "}
        <Link to={authPageUrl("/login", redirectTo)} className="font-semibold text-brand-700 hover:underline">
          Sign in
        </Link>
      </p>
    </AuthLayout>
  );
}
