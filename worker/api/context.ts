import type { Context } from "hono";
import type { Env } from "../env";
import type { Services } from "../services";
import type { Actor } from "../services/policy";

export type ApiVariables = {
  services: Services;
  /** The signed-in user, or null; resolved once per request by the root middleware. */
  user: Actor | null;
  sessionId: string | null;
};
export type ApiEnv = { Bindings: Env; Variables: ApiVariables };
export type ApiContext = Context<ApiEnv>;
