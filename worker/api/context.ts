import type { Context } from "hono";
import type { Env } from "../env";
import type { Services } from "../services";

export type ApiEnv = { Bindings: Env; Variables: { services: Services } };
export type ApiContext = Context<ApiEnv>;
