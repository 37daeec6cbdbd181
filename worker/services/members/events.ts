import type { Subscriptions } from "#worker/events/index.ts";
import type { MemberService } from "#worker/services/members/service.ts";

/**
 * A reader who became a paying member is welcomed by mail (their plan, and where to manage it); a deleted
 * account's subscription is cancelled at Stripe and the MRR history updated.
 */
export const memberSubscriptions = (members: Pick<MemberService, "sync">): Subscriptions => ({
  "member.paid": (paid) => members.sync.welcome(paid),
  "account.erased": (erased) => members.sync.accountErased(erased),
});
