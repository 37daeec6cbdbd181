-- Monthly recurring revenue over time (issue 46): the MRR per currency as it stood at the end of each month, in
-- minor units, written by worker/services/members/mrr.ts in the same batch as each write of a member from Stripe.
-- A month without a row carries the previous month's value. Written by hand to match drizzle/schema.ts (0035
-- belongs to other work).
CREATE TABLE `member_mrr_months` (
	`month` text NOT NULL,
	`currency` text NOT NULL,
	`mrr` integer NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`month`, `currency`)
);
--> statement-breakpoint
-- This month starts from the members as they are, so the history is right from the first month.
INSERT INTO `member_mrr_months` (`month`, `currency`, `mrr`)
SELECT strftime('%Y-%m', 'now'), `currency`, cast(round(sum(CASE WHEN `cadence` = 'year' THEN `amount` / 12.0 ELSE `amount` END)) AS integer)
FROM `members` WHERE `status` = 'paid' AND `subscription_status` IS NOT 'trialing' AND `amount` IS NOT NULL AND `currency` IS NOT NULL GROUP BY `currency`;
