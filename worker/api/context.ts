import type { Client } from "#worker/services/accounts/model.ts";
import type { Context } from "hono";
import type { Env } from "#worker/env.ts";
import type { Services } from "#worker/services/index.ts";
import type { Actor } from "#worker/services/shared/policy.ts";

export type ApiVariables = {
  services: Services;
  /** The signed-in user, or null; resolved once per request by the root middleware. */
  user: Actor | null;
  sessionId: string | null;
  /** The requester as the sign-in limits see it, read once per request when asked (worker/app.ts). */
  client: () => Promise<Client>;
};
export type ApiEnv = { Bindings: Env; Variables: ApiVariables };
export type ApiContext = Context<ApiEnv>;
