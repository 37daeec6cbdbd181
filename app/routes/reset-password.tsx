import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { clearSessionCookie } from "#worker/auth/cookie.ts";
import { PASSWORD_REQUIREMENTS } from "#worker/auth/passwords.ts";
import { ValidationError } from "#worker/services/shared/errors.ts";
import { AuthLayout } from "#app/components/AuthLayout.tsx";
import { Field, FormError, SubmitButton } from "#app/components/form.tsx";
import { redirectWithFlash } from "#app/lib/flash.server.ts";
import { refusal } from "#app/lib/form-result.ts";
import { handleForm, readForm } from "#app/lib/forms.server.ts";
import { tokenPageHeaders, tokenPageMeta } from "#app/lib/token-page.ts";

export const meta = tokenPageMeta({
  title: "Choose a new password",
  description: (brand) => `Set a new password for your ${brand} account.`,
  path: "/reset-password",
});

export const headers = tokenPageHeaders;

export async function loader({ context, request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  try {
    const { email } = await context.services.passwordReset.check(token);
    return { origin: url.origin, token, email, problem: null };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return { origin: url.origin, token: "", email: null, problem: err.message };
  }
}

export async function action({ context, request }: ActionFunctionArgs) {
  const form = await readForm(request);
  return handleForm(request, form, async () => {
    const client = await context.client();
    const { message } = await context.services.passwordReset.reset(
      { token: form.get("token"), password: form.get("password") },
      client,
    );
    // Every session ended, this browser's too: sign in with the new password.
    return redirectWithFlash("/login", { kind: "toast", title: "Password changed", text: message, icon: "success" }, [
      clearSessionCookie(),
    ]);
  });
}

export default function ResetPassword() {
  const { token, email, problem } = useLoaderData<typeof loader>();
  const failure = refusal(useActionData<typeof action>());
  const tokenProblem = failure?.fields.token ? failure.formError : problem;
  return (
    <AuthLayout
      title={tokenProblem ? "This link cannot be used" : "Choose a new password"}
      subtitle={
        tokenProblem
          ? "Password reset links work once, for one hour."
          : `For ${email}. Setting it signs you out on every device.`
      }
      aside={{
        heading: "A fresh start.",
        text: "Pick a password you do not use anywhere else. A password manager makes that easy.",
      }}
    >
      {tokenProblem ? (
        <div className="flex flex-col gap-4">
          <FormError message={tokenProblem} />
          <Link to="/forgot-password" className="font-semibold text-brand-700 hover:underline">
            Ask for a new link
          </Link>
        </div>
      ) : (
        <Form method="post" className="flex flex-col gap-4">
          <input type="hidden" name="token" value={token} />
          {/* For password managers: which account this new password belongs to. */}
          <input type="hidden" name="username" autoComplete="username" value={email ?? ""} />
          <FormError message={failure && !failure.fields.password ? failure.formError : undefined} />
          <Field
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            required

            error={failure?.fields.password}
            hint={failure?.fields.password ? undefined : PASSWORD_REQUIREMENTS}
          />
          <SubmitButton pendingText="Saving…" className="mt-2 w-full">
            Set new password
          </SubmitButton>
        </Form>
      )}
      <p className="mt-6 text-center text-sm text-gray-600">
        <Link to="/login" className="font-semibold text-brand-700 hover:underline">
          Back to sign in
        </Link>
      </p>
    </AuthLayout>
  );
}
