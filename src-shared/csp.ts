/**
 * The Content-Security-Policy of the UI, in one place: the headless server sends it with the web build's HTML and
 * the desktop shell loads the same HTML from its local server (and enforces it on every response of its session).
 *
 * Everything comes from the UI's own origin: scripts and styles only from built files (no inline code, no eval),
 * API calls only to the same origin (the UI is served by the server it talks to), no plugins, no framing, no
 * <base> rewriting, and forms only post back to the origin. Pictures also from `blob:`: a receipt's image is shown
 * from the bytes the UI fetched with its credential (an object URL), as a plain <img src> cannot send one.
 */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
