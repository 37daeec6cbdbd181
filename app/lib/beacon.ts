/**
 * The analytics beacon (worker/services/analytics/, docs/decisions/038), inline at the end of every page
 * with the render's CSP nonce (so a shared page's CSP lists its hash, like the theme script's). After load,
 * and after each client-side navigation (Remix calls history.pushState), it sends the page's path and
 * referrer with navigator.sendBeacon. It sends nothing when the reader asks not to be tracked (Do Not
 * Track, Global Privacy Control), nor from the dashboard and settings (never counted: the server checks
 * both again). Under 1 KB, no cookie.
 */
export const BEACON_SCRIPT = `(function(){var n=navigator,l=location,h=history,u=l.href;if(n.doNotTrack=="1"||n.globalPrivacyControl||!n.sendBeacon)return;function s(r){if(!/^\\/(dashboard|settings)(\\/|$)/.test(l.pathname))n.sendBeacon("/api/analytics/hit",JSON.stringify({path:l.pathname+l.search,referrer:r}))}function a(){s(document.referrer)}document.readyState=="complete"?a():addEventListener("load",a);var p=h.pushState;h.pushState=function(){var o=u;p.apply(h,arguments);u=l.href;if(o.split("#")[0]!=u.split("#")[0])s(o)}})();`;

/** The no-JavaScript fallback: an image whose request counts the page it is on (its Referer). */
export const BEACON_PIXEL = "/api/analytics/hit.gif";
