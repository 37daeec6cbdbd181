/**
 * Words the sign-in flows show, kept apart from their code (no imports) so the pages' bundles can
 * share them without pulling in the OAuth client.
 */

/** The spec's words after a Google sign-in: the popup's dialog and the redirect flow's flash say the same. */
export const GOOGLE_SIGNED_IN = {
  login: { title: "Success", text: "You have successfully signed up!" },
  register: { title: "Register Successful!", text: "You can now use Google Login." },
} as const;
