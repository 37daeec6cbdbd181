import { ValidationError } from "#worker/services/shared/errors.ts";

/**
 * PBKDF2-SHA256 through WebCrypto. Production Workers refuse more than 100,000 iterations (local
 * workerd does not), so the count is pinned at that cap and a test holds it there.
 */
export const PBKDF2 = {
  scheme: "pbkdf2-sha256",
  iterations: 100_000,
  maxIterations: 100_000,
  saltBytes: 16,
  keyBytes: 32,
} as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const PASSWORD_POLICY_CODE = "password-does-not-meet-requirements";
export const PASSWORD_REQUIREMENTS = `Password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long and contain something other than digits.`;

/** What is wrong with a new password, or null when it meets the policy. */
export function passwordProblem(password: unknown): string | null {
  if (typeof password !== "string" || password.length === 0) return `Password is required. ${PASSWORD_REQUIREMENTS}`;
  // Code points, so an emoji counts as one character as a person would count it.
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH || /^\d+$/.test(password))
    return PASSWORD_REQUIREMENTS;
  return null;
}

/** The error for a password that fails the policy, with the code the spec's error catalogue names. */
export function passwordPolicyError(problem: string): ValidationError {
  return new ValidationError(
    { password: problem },
    `The password does not meet the requirements. ${PASSWORD_REQUIREMENTS}`,
    PASSWORD_POLICY_CODE,
  );
}

export function assertPasswordPolicy(password: unknown): string {
  const problem = passwordProblem(password);
  if (problem) throw passwordPolicyError(problem);
  return password as string;
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

function fromBase64(text: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

async function derive(password: string, salt: Uint8Array, iterations: number, keyBytes: number): Promise<Uint8Array> {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations },
    material,
    keyBytes * 8,
  );
  return new Uint8Array(bits);
}

/** A self-describing hash: `pbkdf2-sha256$<iterations>$<salt b64>$<key b64>`, so parameters can change later. */
export async function hashPassword(password: string, iterations: number = PBKDF2.iterations): Promise<string> {
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2.maxIterations) {
    throw new RangeError(`PBKDF2 iterations must be between 1 and ${PBKDF2.maxIterations} (the Workers limit).`);
  }
  const salt = crypto.getRandomValues(new Uint8Array(PBKDF2.saltBytes));
  const key = await derive(password, salt, iterations, PBKDF2.keyBytes);
  return `${PBKDF2.scheme}$${iterations}$${toBase64(salt)}$${toBase64(key)}`;
}

/** Compares every byte whatever the first difference, so timing tells nothing about the hash. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** True when the password matches a stored hash; false for a wrong password or a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 4 || parts[0] !== PBKDF2.scheme) return false;
  const iterations = Number(parts[1]);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2.maxIterations) return false;
  const salt = fromBase64(parts[2]!);
  const expected = fromBase64(parts[3]!);
  if (!salt || !expected || salt.length === 0 || expected.length === 0) return false;
  const actual = await derive(password, salt, iterations, expected.length);
  return constantTimeEqual(actual, expected);
}

/**
 * A well-formed hash no password matches in practice: logins for unknown emails verify against it
 * so that they take as long as logins with a wrong password.
 */
export const UNUSABLE_HASH = `${PBKDF2.scheme}$${PBKDF2.iterations}$${toBase64(new Uint8Array(PBKDF2.saltBytes))}$${toBase64(new Uint8Array(PBKDF2.keyBytes))}`;
