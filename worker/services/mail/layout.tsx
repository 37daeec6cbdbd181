import { renderToStaticMarkup } from "react-dom/server";

/**
 * One message's words, as every template gives them. The layout turns them into the HTML part and the
 * plain-text part, so the two always say the same thing.
 */
export interface MailContent {
  subject: string;
  /** The line mail clients show beside the subject. */
  preheader: string;
  heading: string;
  paragraphs: string[];
  /**
   * A block after the paragraphs that is HTML already (a post's whole body in newsletter mail): it must
   * come sanitised, with absolute URLs, and with its own plain-text version for the text part.
   */
  body?: { html: string; text: string };
  /** The one thing to do, as a button in HTML and as the bare absolute URL in text. */
  action?: { label: string; url: string };
  /** Lines after the button (how long the link works, what to do if it was not you). */
  after?: string[];
  /** A picture above the heading (a post's cover in newsletter mail): an absolute URL. */
  image?: { url: string; alt: string };
  /** Why the person gets it, in the footer; the default is "because of something done with this account". */
  reason?: string;
  /** A one-click unsubscribe link (newsletter mail), in the footer of both parts. */
  unsubscribeUrl?: string;
}

const ACCOUNT_REASON = "because of something done with this account. You cannot reply to it.";

export interface MailFrame {
  siteName: string;
  /** The site's origin: the footer links to it. */
  origin: string;
  /** The address it goes to, named in the footer (people with several addresses know which one). */
  to: string;
}

// Light colours inline (every client reads them); dark ones in a media query for the clients that
// honour prefers-color-scheme (Apple Mail, iOS, Outlook for Mac, Thunderbird). Clients that invert
// colours themselves (Gmail apps, Outlook.com) get light-on-dark from the inline light palette, which
// is why no colour here relies on a background image or a transparent PNG.
const CSS = `
:root { color-scheme: light dark; supported-color-schemes: light dark; }
body { margin: 0; padding: 0; }
a { color: #3b55e6; }
@media (prefers-color-scheme: dark) {
  .m-body { background: #0f1115 !important; }
  .m-card { background: #1a1d24 !important; border-color: #2e333d !important; }
  .m-text, .m-heading { color: #f3f4f6 !important; }
  .m-muted { color: #a3aab8 !important; }
  .m-button { background: #8ea1ff !important; color: #0f1115 !important; }
  .m-link { color: #a9b7ff !important; }
  .m-rule { border-color: #2e333d !important; }
}
.m-post img { max-width: 100%; height: auto; }
.m-post pre { white-space: pre-wrap; word-break: break-word; }
`;

const font = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

function Html({ content, frame }: { content: MailContent; frame: MailFrame }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <title>{content.subject}</title>
        <style dangerouslySetInnerHTML={{ __html: CSS }} />
      </head>
      <body className="m-body" style={{ margin: 0, padding: 0, background: "#f3f4f6" }}>
        <div style={{ display: "none", maxHeight: 0, overflow: "hidden" }}>{content.preheader}</div>
        <table
          role="presentation"
          width="100%"
          cellPadding={0}
          cellSpacing={0}
          className="m-body"
          style={{ background: "#f3f4f6", padding: "24px 12px" }}
        >
          <tbody>
            <tr>
              <td align="center">
                <table
                  role="presentation"
                  width="100%"
                  cellPadding={0}
                  cellSpacing={0}
                  className="m-card"
                  style={{
                    maxWidth: 560,
                    background: "#ffffff",
                    border: "1px solid #e5e7eb",
                    borderRadius: 12,
                    fontFamily: font,
                  }}
                >
                  <tbody>
                    {content.image ? (
                      <tr>
                        <td style={{ padding: 0 }}>
                          <img
                            src={content.image.url}
                            alt={content.image.alt}
                            width={560}
                            style={{
                              display: "block",
                              width: "100%",
                              maxWidth: 560,
                              height: "auto",
                              borderRadius: "12px 12px 0 0",
                            }}
                          />
                        </td>
                      </tr>
                    ) : null}
                    <tr>
                      <td style={{ padding: "28px 28px 8px" }}>
                        <p
                          className="m-muted"
                          style={{
                            margin: 0,
                            fontSize: 13,
                            fontWeight: 700,
                            letterSpacing: "0.08em",
                            textTransform: "uppercase",
                            color: "#4b5563",
                          }}
                        >
                          {frame.siteName}
                        </p>
                        <h1
                          dir="auto"
                          className="m-heading"
                          style={{ margin: "12px 0 0", fontSize: 22, lineHeight: 1.3, color: "#111827" }}
                        >
                          {content.heading}
                        </h1>
                      </td>
                    </tr>
                    <tr>
                      <td style={{ padding: "8px 28px 0" }}>
                        {content.paragraphs.map((p) => (
                          <p
                            key={p}
                            dir="auto"
                            className="m-text"
                            style={{ margin: "12px 0", fontSize: 16, lineHeight: 1.6, color: "#111827" }}
                          >
                            {p}
                          </p>
                        ))}
                        {content.body ? (
                          <div
                            className="m-text m-post"
                            style={{ fontSize: 16, lineHeight: 1.6, color: "#111827" }}
                            dangerouslySetInnerHTML={{ __html: content.body.html }}
                          />
                        ) : null}
                        {content.action ? (
                          <>
                            <p style={{ margin: "24px 0" }}>
                              <a
                                href={content.action.url}
                                className="m-button"
                                style={{
                                  display: "inline-block",
                                  padding: "12px 22px",
                                  borderRadius: 8,
                                  background: "#3b55e6",
                                  color: "#ffffff",
                                  fontSize: 16,
                                  fontWeight: 600,
                                  textDecoration: "none",
                                }}
                              >
                                {content.action.label}
                              </a>
                            </p>
                            <p
                              className="m-muted"
                              style={{ margin: "12px 0", fontSize: 13, lineHeight: 1.5, color: "#4b5563" }}
                            >
                              If the button does not work, copy this address into your browser:
                              <br />
                              <a
                                href={content.action.url}
                                className="m-link"
                                style={{ color: "#3b55e6", wordBreak: "break-all" }}
                              >
                                {content.action.url}
                              </a>
                            </p>
                          </>
                        ) : null}
                        {(content.after ?? []).map((p) => (
                          <p
                            key={p}
                            className="m-muted"
                            style={{ margin: "12px 0", fontSize: 14, lineHeight: 1.6, color: "#4b5563" }}
                          >
                            {p}
                          </p>
                        ))}
                      </td>
                    </tr>
                    <tr>
                      <td style={{ padding: "16px 28px 28px" }}>
                        <p
                          className="m-muted m-rule"
                          style={{
                            margin: 0,
                            paddingTop: 16,
                            borderTop: "1px solid #e5e7eb",
                            fontSize: 12,
                            lineHeight: 1.5,
                            color: "#4b5563",
                          }}
                        >
                          This message was sent to {frame.to} by{" "}
                          <a href={frame.origin} className="m-link" style={{ color: "#3b55e6" }}>
                            {frame.siteName}
                          </a>{" "}
                          {content.reason ?? ACCOUNT_REASON}
                          {content.unsubscribeUrl ? (
                            <>
                              {" "}
                              <a href={content.unsubscribeUrl} className="m-link" style={{ color: "#3b55e6" }}>
                                Unsubscribe
                              </a>
                            </>
                          ) : null}
                        </p>
                      </td>
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}

/** The HTML part and the plain-text part of one message. */
export function renderMail(content: MailContent, frame: MailFrame): { text: string; html: string } {
  const html = `<!doctype html>${renderToStaticMarkup(<Html content={content} frame={frame} />)}`;
  const lines = [
    frame.siteName,
    "",
    content.heading,
    "",
    ...content.paragraphs.flatMap((p) => [p, ""]),
    ...(content.body ? [content.body.text, ""] : []),
    ...(content.action ? [`${content.action.label}:`, content.action.url, ""] : []),
    ...(content.after ?? []).flatMap((p) => [p, ""]),
    "--",
    `This message was sent to ${frame.to} by ${frame.siteName} (${frame.origin}) ${content.reason ?? ACCOUNT_REASON}`,
    ...(content.unsubscribeUrl ? ["", `Unsubscribe: ${content.unsubscribeUrl}`] : []),
  ];
  return { text: `${lines.join("\n")}\n`, html };
}
