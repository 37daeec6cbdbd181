import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData } from "@remix-run/react";
import { AuthLayout } from "#app/components/AuthLayout.tsx";
import { EmailField, FormError, SubmitButton } from "#app/components/form.tsx";
import { refusal } from "#app/lib/form-result.ts";
import { handleForm, readForm } from "#app/lib/forms.server.ts";
import { seo } from "#app/lib/seo.ts";
import { brandOf } from "#app/lib/site-name.ts";

export const meta: MetaFunction<typeof loader> = ({ data: d, matches }) => [
  ...seo({
    brand: brandOf(matches),
    title: "Forgot your password?",
    description: `Get a link to choose a new password for your ${brandOf(matches)} account.`,
    origin: d?.origin ?? "https://example.invalid",
    path: "/forgot-password",
  }),
  { name: "robots", content: "noindex" },
];

export function loader({ request }: LoaderFunctionArgs) {
  return { origin: new URL(request.url).origin };
}

export async function action({ context, request }: ActionFunctionArgs) {
  const form = await readForm(request);
  return handleForm(request, form, async () => {
    const client = await context.client();
    const { message } = await context.services.passwordReset.request({ email: form.get("email") }, client);
    return data({ ok: true as const, message, email: String(form.get("email") ?? "").trim() });
  });
}

export default function ForgotPassword() {
  const result = useActionData<typeof action>();
  const failure = refusal(result);
  const sent = result && "ok" in result && result.ok === true ? result : null;
  return (
    <AuthLayout
      title={sent ? "Check your inbox" : "Forgot your password?"}
      subtitle={
        sent
          ? `We sent the link to ${sent.email}, if it belongs to an account.`
          : "Enter the email address of your account and we will send you a link to choose a new password."
      }
      aside={{
        heading: "It happens to everyone.",
        text: "One link by email, a new password, and you are back to writing.",
      }}
    >
      {sent ? (
        <div className="flex flex-col gap-4">
          <p role="status" className="rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-900">
            {sent.message}
          </p>
          <p className="text-sm text-gray-600">
            No mail? Look in your spam folder, or{" "}
            <Link to="/forgot-password" className="font-semibold text-brand-700 hover:underline">
              try another address
            </Link>
            .
          </p>
        </div>
      ) : (
        <Form method="post" className="flex flex-col gap-4">
          <FormError message={failure && !failure.fields.email ? failure.formError : undefined} />
          <EmailField defaultValue={failure?.values.email} error={failure?.fields.email} />
          <SubmitButton pendingText="Sending…" className="mt-2 w-full">
            Send me a reset link
          </SubmitButton>
        </Form>
      )}
      <p className="mt-6 text-center text-sm text-gray-600">
        Remembered it?{" "}
        <Link to="/login" className="font-semibold text-brand-700 hover:underline">
          Back to sign in
        </Link>
      </p>
    </AuthLayout>
  );
}
