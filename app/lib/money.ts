/**
 * Currencies whose amounts Stripe takes with no minor unit (¥500 is `500`), and with three (`5000` is 5.000 KWD);
 * every other currency has two. From Stripe's list of zero-decimal and three-decimal currencies (ISK, HUF and TWD
 * Stripe takes as two-decimal, so they stay with the others).
 */
const ZERO_DECIMAL = new Set("bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf".split(" "));
const THREE_DECIMAL = new Set("bhd jod kwd omr tnd".split(" "));

/** How many digits of an amount in Stripe's minor units are after the decimal point. */
export const minorDigits = (currency: string): number =>
  ZERO_DECIMAL.has(currency.toLowerCase()) ? 0 : THREE_DECIMAL.has(currency.toLowerCase()) ? 3 : 2;

/** An amount in Stripe's minor units of an ISO currency, as people read it ("$5.00", "€50.00", "¥500"). */
export function formatMoney(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  const amount = minor / 10 ** digits;
  try {
    return new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: currency.toUpperCase(),
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(amount);
  } catch {
    return `${amount.toFixed(digits)} ${currency.toUpperCase()}`;
  }
}

/** What one minor unit of a currency is called on a price field: "cents", or what stands in for them. */
export const minorUnit = (currency: string): string =>
  (({ 0: "whole units", 3: "thousandths" }) as Record<number, string>)[minorDigits(currency)] ?? "cents";
