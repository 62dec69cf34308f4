// Joining a room from another device: the link that joins it (what the Invite dialog and the TV table
// show, and what setd's `/qr.svg?room=` draws — the page's origin and `/?room=NAME`), the path of that
// QR code, the TV table's link, and the address as words to read aloud. Pure: no document, no socket;
// `node --test Tests/Page` loads this file on its own.

/** The link that joins `room` at `origin` (the page's `location.origin`): what `/qr.svg?room=` draws. */
function joinLink(origin, room) { return origin + "/?room=" + encodeURIComponent(room); }

/** The path of the QR code of `room`'s join link, on the server that served the page. */
function qrPath(room) { return "/qr.svg?room=" + encodeURIComponent(room); }

/** The TV table of `room` at `origin`. */
function tvLink(origin, room) { return origin + "/tv?room=" + encodeURIComponent(room); }

/**
 * The address to read aloud and type: the origin without `http://` (a browser adds it) or a trailing
 * `/`; an `https://` origin keeps its scheme, since a browser would not add that one.
 */
function spokenAddress(origin) { return String(origin).replace(/^http:\/\//i, "").replace(/\/+$/, ""); }

/**
 * Whether `hostname` (`location.hostname`) names this machine only — `localhost`, 127.0.0.0/8, `::1` —
 * so that a phone could not open a link to it: the page then says to open it at the LAN address.
 */
function isLoopbackHost(hostname) {
  const host = String(hostname).toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return host === "localhost" || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === "::1";
}

if (typeof module === "object" && module.exports) {
  module.exports = { joinLink, qrPath, tvLink, spokenAddress, isLoopbackHost };
}
